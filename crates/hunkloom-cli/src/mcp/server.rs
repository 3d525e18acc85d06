//! The MCP side: [`Server`] answers `initialize`, `tools/list` and `tools/call` through the
//! official SDK (`rmcp`) and hands each call to the [`Toolset`].
//!
//! Each call runs on a thread of its own, so a host's parallel tool calls run at once: calls on
//! different files in parallel, calls on the same file in the order they arrived (see
//! [`order`](crate::mcp::order)), so a client that sends a read and then an edit without
//! waiting gets them in that order. A call that names no listed tool is a JSON-RPC error
//! (`-32602`); a mistake inside a call is a tool result with `isError: true`, its stable code in
//! `_meta["hunkloom/code"]`. A panic inside a call is caught and answered as
//! `internal_error`; the server keeps serving.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use hunkloom_tools::{ToolDefinition, ToolResult, Toolset, ToolsetProfile};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, ErrorCode, Implementation, JsonObject, ListToolsResult, MetaObject,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;

use crate::mcp::order::{Files, Order};

/// The `_meta` key of a refusal's stable code.
pub(crate) const CODE_KEY: &str = "hunkloom/code";

/// An MCP server over one [`Toolset`].
pub(crate) struct Server {
    toolset: Arc<Toolset>,
    order: Arc<Order>,
    tools: Vec<Tool>,
    config: ServerConfig,
}

impl Server {
    /// A server answering with `toolset`'s tools; `read_only` tells the instructions so.
    pub(crate) fn new(toolset: Toolset, read_only: bool) -> Server {
        let tools = toolset.tools().into_iter().map(tool).collect();
        let instructions = if toolset.profile() == ToolsetProfile::Native {
            format!(
                "hunkloom edits files under {} safely. Read a file with read_file before editing \
                 it with apply_diff (SEARCH/REPLACE blocks) or apply_lazy (the changed code with \
                 `... existing code ...` markers); use apply_patch to change several files at \
                 once, all or none; undo_edit takes an edit back. A refused call is an error \
                 result that says what to change; nothing is written then.{}",
                toolset.root().display(),
                if read_only {
                    " This server is read-only: only read_file is available."
                } else {
                    ""
                }
            )
        } else {
            format!(
                "hunkloom answers the {} tools over {} as their reference does; every path \
                 stays inside that root.",
                toolset.profile(),
                toolset.root().display()
            )
        };
        let config = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new("hunkloom", env!("CARGO_PKG_VERSION")).with_title("hunkloom"),
            )
            .with_instructions(instructions);
        Server {
            toolset: Arc::new(toolset),
            order: Arc::new(Order::default()),
            tools,
            config,
        }
    }

    /// Runs one call on a thread of its own, after the earlier calls on its files.
    async fn run(&self, name: String, input: Value) -> ToolResult {
        // Taken now, on the runtime's thread, in the order the requests arrived.
        let files = match self.toolset.files(&name, &input) {
            Some(paths) => Files::Some(paths),
            None => Files::All,
        };
        let ticket = self.order.enter(files);
        let (toolset, order) = (Arc::clone(&self.toolset), Arc::clone(&self.order));
        let call = tokio::task::spawn_blocking(move || {
            let _turn = order.wait(ticket);
            run(&toolset, &name, &input)
        });
        call.await.unwrap_or_else(|_| internal_error())
    }
}

/// The MCP tool of a definition: its schema, title and hints (a tool that only reads is
/// idempotent and not destructive; none reaches outside the root).
fn tool(definition: ToolDefinition) -> Tool {
    let schema = match definition.input_schema {
        Value::Object(map) => map,
        _ => JsonObject::default(),
    };
    let read_only = definition.read_only;
    let annotations = match definition.title {
        Some(title) => ToolAnnotations::with_title(title),
        None => ToolAnnotations::new(),
    }
    .read_only(read_only)
    .destructive(!read_only)
    .idempotent(read_only)
    .open_world(false);
    Tool::new(definition.name, definition.description, schema).with_annotations(annotations)
}

/// Runs one call, panics caught. The toolset stays usable after a panic (every commit is atomic
/// on disk), so the server carries on with it.
fn run(toolset: &Toolset, name: &str, input: &Value) -> ToolResult {
    match catch_unwind(AssertUnwindSafe(|| toolset.call(name, input))) {
        Ok(Ok(answer)) => answer,
        Ok(Err(e)) => {
            let mut failed = ToolResult::default();
            failed.output = e.message().to_owned();
            failed.is_error = true;
            failed.code = e.code().to_owned();
            failed
        }
        Err(_) => internal_error(),
    }
}

/// The answer to a call a bug stopped.
fn internal_error() -> ToolResult {
    tracing::error!("a tool call panicked");
    let mut failed = ToolResult::default();
    failed.output = "A bug inside hunkloom stopped this call; please report it. Read the file \
                     again before editing it."
        .to_owned();
    failed.is_error = true;
    failed.code = "internal_error".to_owned();
    failed
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
        if self.get_tool(&request.name).is_none() {
            return Err(unknown_tool(&request.name, &self.tools));
        }
        let name = request.name.to_string();
        let input = Value::Object(request.arguments.unwrap_or_default());
        let answer = self.run(name, input).await;
        tracing::debug!(
            tool = request.name.as_ref(),
            is_error = answer.is_error,
            code = answer.code.as_str(),
            "tool call"
        );
        Ok(result(answer).into())
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

/// The MCP result of a toolset's answer.
fn result(answer: ToolResult) -> CallToolResult {
    tool_result(answer.output, answer.is_error.then_some(answer.code))
}

/// A tool result with `text`; with a `code`, an error result carrying it in
/// `_meta["hunkloom/code"]`.
fn tool_result(text: String, code: Option<String>) -> CallToolResult {
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
fn unknown_tool(name: &str, tools: &[Tool]) -> ErrorData {
    let listed: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    ErrorData::invalid_params(
        format!(
            "unknown tool `{name}`: this server has {}",
            listed.join(", ")
        ),
        None,
    )
}
