//! `hunkloom mcp --profile P` for a profile that is not a text editor (`openai`): the server
//! lists the [`Toolset`]'s tools under their own names and answers each call with the
//! reference's text (`isError` as the reference's error flag, the stable code in
//! `_meta["hunkloom/code"]`). Calls run on blocking threads, one at a time per toolset call
//! order (the toolset itself makes calls on one file take turns).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use hunkloom_tools::{ToolResult, Toolset};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, JsonObject,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use crate::mcp::server::{tool_result, unknown_tool};

/// An MCP server over one [`Toolset`].
pub(crate) struct ToolsetServer {
    toolset: Arc<Toolset>,
    tools: Vec<Tool>,
    config: ServerConfig,
}

impl ToolsetServer {
    /// A server answering with `toolset`'s tools.
    pub(crate) fn new(toolset: Toolset) -> ToolsetServer {
        let tools = toolset
            .tools()
            .into_iter()
            .map(|t| {
                let schema = match t.input_schema {
                    serde_json::Value::Object(map) => map,
                    _ => JsonObject::default(),
                };
                Tool::new(t.name, t.description, schema)
            })
            .collect();
        let instructions = format!(
            "hunkloom answers the {} tools over {} as their reference does; every path stays \
             inside that root.",
            toolset.profile(),
            toolset.root().display()
        );
        let config = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new("hunkloom", env!("CARGO_PKG_VERSION")).with_title("hunkloom"),
            )
            .with_instructions(instructions);
        ToolsetServer {
            toolset: Arc::new(toolset),
            tools,
            config,
        }
    }
}

/// The MCP result of a toolset's answer.
fn result(answer: ToolResult) -> CallToolResult {
    tool_result(answer.output, answer.is_error.then_some(answer.code))
}

impl ServerHandler for ToolsetServer {
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
        let input = serde_json::Value::Object(request.arguments.unwrap_or_default());
        let toolset = Arc::clone(&self.toolset);
        let answer = tokio::task::spawn_blocking(move || {
            catch_unwind(AssertUnwindSafe(|| toolset.call(&name, &input)))
        })
        .await;
        let answer = match answer {
            Ok(Ok(Ok(answer))) => answer,
            Ok(Ok(Err(e))) => {
                let mut failed = ToolResult::default();
                failed.output = e.message().to_owned();
                failed.is_error = true;
                failed.code = e.code().to_owned();
                failed
            }
            _ => {
                tracing::error!("a toolset call panicked");
                let mut failed = ToolResult::default();
                failed.output =
                    "A bug inside hunkloom stopped this call; please report it.".to_owned();
                failed.is_error = true;
                failed.code = "internal_error".to_owned();
                failed
            }
        };
        Ok(result(answer).into())
    }
}
