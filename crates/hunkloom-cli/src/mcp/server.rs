//! The MCP side: [`Server`] answers `initialize`, `tools/list` and `tools/call` through the
//! official SDK (`rmcp`) and hands each call to the [`Session`].
//!
//! Each call runs on a thread of its own, so a host's parallel tool calls run at once: calls on
//! different files in parallel, calls on the same file in the order they arrived (see
//! [`order`](crate::mcp::order)), so a client that sends a read and then an edit without
//! waiting gets them in that order. A call that names no listed tool is a JSON-RPC error (`-32602`); a
//! mistake inside a call is a tool result with `isError: true`, its stable code in
//! `_meta["hunkloom/code"]`. A panic inside a call is caught and answered as
//! `internal_error`; the server keeps serving.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, ErrorCode, Implementation, JsonObject, ListToolsResult, MetaObject,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use crate::mcp::handlers::Session;
use crate::mcp::order::{Files, Order};
use crate::mcp::reply::Reply;
use crate::mcp::tools::ToolName;

/// The `_meta` key of a refusal's stable code.
pub(crate) const CODE_KEY: &str = "hunkloom/code";

/// An MCP server over one [`Session`].
pub(crate) struct Server {
    session: Arc<Session>,
    order: Arc<Order>,
    tools: Vec<Tool>,
    read_only: bool,
    config: ServerConfig,
}

impl Server {
    /// A server answering with `tools` (the definitions listed) from `session`.
    pub(crate) fn new(session: Session, tools: Vec<Tool>, read_only: bool) -> Server {
        let instructions = format!(
            "hunkloom edits files under {} safely. Read a file with read_file before editing \
             it with apply_diff (SEARCH/REPLACE blocks) or apply_lazy (the changed code with \
             `... existing code ...` markers); use apply_patch to change several files at once, \
             all or none; undo_edit takes an edit back. A refused call is an error result that says what to \
             change; nothing is written then.{}",
            session.root().display(),
            if read_only {
                " This server is read-only: only read_file is available."
            } else {
                ""
            }
        );
        let config = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new("hunkloom", env!("CARGO_PKG_VERSION")).with_title("hunkloom"),
            )
            .with_instructions(instructions);
        Server {
            session: Arc::new(session),
            order: Arc::new(Order::default()),
            tools,
            read_only,
            config,
        }
    }

    /// The listed tool called `name`.
    fn tool(&self, name: &str) -> Option<ToolName> {
        ToolName::from_name(name).filter(|t| !self.read_only || t.is_read_only())
    }

    /// Runs one call on a thread of its own, after the earlier calls on its files.
    async fn run(&self, tool: ToolName, arguments: JsonObject) -> Reply {
        // Taken now, on the runtime's thread, in the order the requests arrived.
        let ticket = self.order.enter(self.files(tool, &arguments));
        let (session, order) = (Arc::clone(&self.session), Arc::clone(&self.order));
        let call = tokio::task::spawn_blocking(move || {
            let _turn = order.wait(ticket);
            run(&session, tool, &arguments)
        });
        call.await.unwrap_or_else(|_| internal_error(tool))
    }

    /// The files a call touches: its `path`, resolved, or every file for a patch.
    fn files(&self, tool: ToolName, arguments: &JsonObject) -> Files {
        if tool == ToolName::ApplyPatch {
            return Files::All;
        }
        let path = arguments.get("path").and_then(serde_json::Value::as_str);
        Files::Some(path.map(|p| self.session.target(p)).into_iter().collect())
    }
}

/// Runs one call, panics caught. The session stays usable after a panic (every commit is atomic
/// on disk), so the server carries on with it.
fn run(session: &Session, tool: ToolName, arguments: &JsonObject) -> Reply {
    catch_unwind(AssertUnwindSafe(|| session.call(tool, arguments)))
        .unwrap_or_else(|_| internal_error(tool))
}

/// The answer to a call a bug stopped.
fn internal_error(tool: ToolName) -> Reply {
    tracing::error!(tool = tool.as_str(), "a tool call panicked");
    Reply::refused(
        "internal_error",
        "A bug inside hunkloom stopped this call; please report it. Read the file again before \
         editing it.",
    )
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        self.config.clone()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(tool) = self.tool(&request.name) else {
            return Err(unknown_tool(&request.name, &self.tools));
        };
        let arguments = request.arguments.unwrap_or_default();
        let reply = self.run(tool, arguments).await;
        tracing::debug!(
            tool = tool.as_str(),
            is_error = reply.is_error(),
            code = reply.code.as_deref().unwrap_or(""),
            "tool call"
        );
        Ok(result(reply).into())
    }

    /// The SDK hands over every request it could not parse: an unknown method, or a known one
    /// whose parameters do not fit (a `tools/call` without a `name`, with `arguments` that are
    /// not an object, ...).
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let method = request.method.as_str();
        Err(match method {
            "tools/call" => ErrorData::invalid_params(
                "tools/call needs params {\"name\": a tool's name, \"arguments\": an object}",
                None,
            ),
            "tools/list" | "initialize" | "ping" => {
                ErrorData::invalid_params(format!("malformed params for {method}"), None)
            }
            _ => ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!(
                    "unknown method `{method}`: this server answers initialize, ping, tools/list \
                     and tools/call"
                ),
                None,
            ),
        })
    }
}

/// The MCP result of `reply`.
fn result(reply: Reply) -> CallToolResult {
    tool_result(reply.text, reply.code)
}

/// A tool result with `text`; with a `code`, an error result carrying it in
/// `_meta["hunkloom/code"]`.
pub(crate) fn tool_result(text: String, code: Option<String>) -> CallToolResult {
    let content = vec![ContentBlock::text(text)];
    match code {
        None => CallToolResult::success(content),
        Some(code) => {
            let mut result = CallToolResult::error(content);
            let mut meta = MetaObject::default();
            meta.insert(CODE_KEY.to_owned(), code.into());
            result.meta = Some(meta);
            result
        }
    }
}

/// The JSON-RPC error for a call of a tool the server does not list.
pub(crate) fn unknown_tool(name: &str, tools: &[Tool]) -> ErrorData {
    let listed: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    ErrorData::invalid_params(
        format!(
            "unknown tool `{name}`: this server has {}",
            listed.join(", ")
        ),
        None,
    )
}
