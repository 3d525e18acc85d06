"""The ``hunkloom`` command: ``hunkloom apply``, ``hunkloom mcp``, ``hunkloom demo`` (see
``hunkloom --help``). Installed as the ``hunkloom`` script and run by ``python -m hunkloom``;
the command itself runs natively, in this process, through the extension."""

from __future__ import annotations

import signal
import sys

from hunkloom._native import cli


def main() -> None:
    """Run the command with this process's arguments and exit with its status."""
    # The command runs natively: Ctrl-C and a closed pipe end it as they end any command, not
    # through Python's handlers (which would wait for the native call to return).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(cli(["hunkloom", *sys.argv[1:]]))


if __name__ == "__main__":
    main()
