"""ext6: container mechanisms from a Docker policy corpus (a tune project).

A boolean flag turned off (`--privileged=false`, `--volumes=false`) is no flag; the host's raw
disk given to a container (`--device /dev/sda`), a bind of the host root spelt `src=/`, and a
build with `--allow security.insecure` reach the host (critical); draining a swarm node is
dangerous, as `kubectl drain` is.
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import C, D, M, S


@pytest.mark.parametrize(
    "command,expected",
    [
        ("docker run --privileged=false nginx:latest", M),
        ("podman run --privileged=0 alpine true", M),
        ("docker compose down --volumes=false", M),
        ("docker run --privileged nginx:latest", C),
        ("docker compose down --volumes", D),
        ("docker run --device /dev/sda nginx:latest", C),
        ("docker run --device=/dev/nvme0n1 alpine", C),
        ("docker run --device /dev/snd app", M),
        ("nerdctl run --mount type=bind,src=/,dst=/mnt alpine", C),
        ("docker run --mount type=bind,src=/srv/app,dst=/app nginx", M),
        ("docker buildx build --allow=security.insecure .", C),
        ("docker build --allow security.insecure -t x .", C),
        ("docker node update --availability=drain node-2", D),
        ("docker node update --availability active node-2", M),
        ("docker buildx du", S),
    ],
)
def test_container_flags(command: str, expected: RiskLevel) -> None:
    assert assess(command, "bash").level == expected
