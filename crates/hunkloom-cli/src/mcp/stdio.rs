//! The transport: the SDK's stdin/stdout transport, behind a filter that keeps a stray
//! message from ending the session before it starts.
//!
//! Before the `initialize` handshake the SDK answers requests (`ping`, `server/discover`, a
//! request missing its lifecycle metadata) but gives up on anything else: a notification or
//! a response sent too early would end the process. [`Patient`] drops those (with a log line)
//! until the session has started, so nothing a client sends can stop the server.

use std::future::Future;

use rmcp::RoleServer;
use rmcp::model::{JsonRpcMessage, ServerResult};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;

/// The server's transport over standard input and output.
pub(crate) fn transport() -> Patient<impl Transport<RoleServer>> {
    let (stdin, stdout) = rmcp::transport::stdio();
    Patient {
        inner: rmcp::transport::async_rw::AsyncRwTransport::new_server(stdin, stdout),
        started: false,
    }
}

/// A transport that passes only requests until the session has started: until the server
/// answers `initialize`, or answers a request of the inline (per-request metadata) lifecycle.
pub(crate) struct Patient<T> {
    inner: T,
    started: bool,
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for Patient<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        if let JsonRpcMessage::Response(response) = &item
            && !matches!(
                response.result,
                ServerResult::EmptyResult(_) | ServerResult::DiscoverResult(_)
            )
        {
            self.started = true;
        }
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            let message = self.inner.receive().await?;
            if self.started || matches!(message, JsonRpcMessage::Request(_)) {
                return Some(message);
            }
            tracing::warn!(?message, "ignored a message sent before initialize");
        }
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
