//! `hunkloom mcp` as a client sees it: the binary spawned, JSON-RPC over its stdin and stdout,
//! files checked byte for byte.

mod client;
mod protocol;
mod readme;
mod tools;
mod toolsets;
