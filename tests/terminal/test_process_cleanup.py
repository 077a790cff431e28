"""Children never outlive the server: when the process exits (its client went away and
stdin hit EOF) without closing anything, the exit hook kills every tree."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from .conftest import assert_gone

SERVER = textwrap.dedent(
    """
    import asyncio, sys
    from aintern_ls.terminal.runner import RunRequest, RunningCommand
    from aintern_ls.terminal.session import TerminalManager

    async def main():
        manager = TerminalManager()
        session = await manager.create(shell="bash")
        record = await session.execute("sleep 300 & echo $!", timeout=10)
        run = RunningCommand(RunRequest("setsid sleep 301 & echo $!; sleep 302"))
        run.start()
        await asyncio.sleep(0.5)
        pids = [session.pid, int(record.output.split()[-1]), run.pid]
        print(" ".join(map(str, pids)), flush=True)
        # Like a server whose client vanished: wait for stdin EOF, then just return.
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)

    asyncio.run(main())
    """
)


def test_children_are_killed_when_the_server_exits_on_stdin_eof() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdin is not None
    pids = [int(p) for p in proc.stdout.readline().split()]
    assert len(pids) == 3
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0
    assert_gone(pids)
