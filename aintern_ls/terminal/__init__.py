"""Terminal engine: commands in real pseudo-terminals.

- `pty`: the `Pty` interface with its ptyprocess (POSIX) and pywinpty (Windows) backends
- `reader`: `PtyStream`, a reader thread per PTY handing bounded batches to asyncio
- `process_tree`: ending a command with everything it started; the exit-time hook
- `runner`: one-shot runs (`run_command`, `RunningCommand`, `Runner`, `RunRequest`/`RunResult`)
- `integration`: shell-integration scripts (bash, zsh, pwsh) and the OSC 633/133 mark parser
- `session`: interactive terminals (`TerminalSession`, `TerminalManager`)
- `cli`: `aintern-ls run FILE --block N`
"""
