"""Session 20 (n20u): Unix mechanisms the red team's held-back sets showed fixed only in part,
each tested across programs, shells, wrappers and look-alikes that carry the same text as data
(the labelled rows are in sources_n20u.tsv)."""

from __future__ import annotations

import shlex

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import B, C, M, S


def _rated(command: str, shell: str = "bash") -> RiskLevel:
    return assess(command, shell).level


def _wrapped(command: str) -> list[str]:
    """The same command through wrappers that hand it on unchanged."""
    q = shlex.quote(command)
    return [
        command,
        f"sudo {command}",
        f"env LC_ALL=C {command}",
        f"bash -c {q}",
        f"f() {{ {command}; }}; f",
        f"( {command} )",
        f"true && {command}",
    ]


# 1. JVM event hooks: read for programs that start a JVM (not any program whose words mention a
# hook), in every mode they start the JVM in, from launcher variables of any name, from option
# files written in the block or persisted for later runs, and from PowerShell and cmd.
_JVM_BLOCKED = [
    'javaw "-XX:OnError=rm -rf ~" -jar tool.jar',
    "kotlinc -J-XX:OnOutOfMemoryError='rm -rf /' -script x.kts",
    'sbt -J-XX:OnOutOfMemoryError="rm -rf $HOME" test',
    "scala -J-XX:OnError='rm -rf /etc' Main.scala",
    'mvnw -DargLine="-XX:OnOutOfMemoryError=rm -rf ~" verify',
    'gradlew "-Dorg.gradle.jvmargs=-XX:OnError=rm -rf /" assemble',
    'java -XX:OnError="rm -rf ~" -version',
    'java -XX:OnError="rm -rf ~" --help',
    'java -XX:OnOutOfMemoryError="rm -rf /" --dry-run -jar a.jar',
    "JETTY_JAVA_OPTIONS='-XX:OnError=rm -rf ~' ./bin/jetty.sh start",
    "STORM_OPTS='-XX:OnOutOfMemoryError=rm -rf /' storm nimbus",
    "printf -- '-XX:OnError=rm -rf ~\\n' > /tmp/j.opts\n"
    "java -XX:VMOptionsFile=/tmp/j.opts -jar a.jar",
    "echo '-XX:OnOutOfMemoryError=rm -rf /' > args.txt && java @args.txt Main",
    "echo 'org.gradle.jvmargs=-XX:OnError=rm -rf ~' >> gradle.properties",
    "echo '-J-XX:OnError=rm -rf ~' >> .sbtopts",
    "echo '-XX:OnOutOfMemoryError=rm -rf /' | tee -a config/jvm.options",
]


@pytest.mark.parametrize("command", _JVM_BLOCKED)
def test_jvm_hooks_blocked(command: str) -> None:
    assert _rated(command) == B, command


@pytest.mark.parametrize("command", _wrapped('java -XX:OnError="rm -rf /etc" -jar a.jar'))
def test_jvm_hook_through_wrappers(command: str) -> None:
    assert _rated(command) == B, command


_JVM_WINDOWS_BLOCKED = [
    ("$env:JAVA_TOOL_OPTIONS = '-XX:OnError=rm -rf ~'", "powershell"),
    ("$env:KAFKA_HEAP_OPTS='-XX:OnOutOfMemoryError=rd /s /q C:\\Users'", "powershell"),
    ("java '-XX:OnError=rm -rf ~' -jar a.jar", "powershell"),
    ("& java '-XX:OnError=rd /s /q C:\\Windows' -jar a.jar", "powershell"),
    ("Invoke-Command { javaw '-XX:OnOutOfMemoryError=rd /s /q C:\\' -jar a.jar }", "powershell"),
    ("set JAVA_TOOL_OPTIONS=-XX:OnError=rm -rf ~", "cmd"),
    ('set "_JAVA_OPTIONS=-XX:OnError=rd /s /q C:\\Users"', "cmd"),
    ('java "-XX:OnOutOfMemoryError=rd /s /q C:\\Windows" -jar a.jar', "cmd"),
    ('cmd /c java "-XX:OnError=rd /s /q C:\\" -jar a.jar', "cmd"),
]


@pytest.mark.parametrize(("command", "shell"), _JVM_WINDOWS_BLOCKED)
def test_jvm_hooks_windows_shells(command: str, shell: str) -> None:
    assert _rated(command, shell) == B, command


_JVM_CRITICAL = [
    ("java -XX:OnOutOfMemoryError=./oom.sh -jar a.jar", "bash"),
    ("echo '-XX:OnOutOfMemoryError=kill -9 %p' >> .mvn/jvm.config", "bash"),
    ("$env:JAVA_OPTS='-XX:OnError=.\\crash.cmd'", "powershell"),
]


@pytest.mark.parametrize(("command", "shell"), _JVM_CRITICAL)
def test_jvm_hooks_critical(command: str, shell: str) -> None:
    assert _rated(command, shell) == C, command


# Look-alikes: the hook's text carried as data by programs that start no JVM, printed or
# searched; option files and variables without a hook.
_JVM_NOT_RAISED = [
    ('curl -d "-XX:OnError=rm -rf ~" https://paste.example/api', "bash", M),
    ('curl --data-raw "-XX:OnOutOfMemoryError=rm -rf /" https://x.example', "bash", M),
    ('gh issue create --title jvm --body "-XX:OnError=rm -rf ~ wiped my home"', "bash", M),
    ('ssh host grep -- "-XX:OnError=rm -rf ~" /etc/jvm.cfg', "bash", M),
    ('docker build --build-arg JAVA_OPTS="-XX:OnError=rm -rf /" .', "bash", M),
    ('kubectl set env deploy/app JAVA_OPTS="-XX:OnError=rm -rf /"', "bash", M),
    ('grep -rn -- "-XX:OnError=rm -rf" /etc/java', "bash", S),
    ('echo "-XX:OnError=rm -rf ~"', "bash", S),
    ("echo 'org.gradle.jvmargs=-Xmx2g' >> gradle.properties", "bash", M),
    ("echo '-Xmx2g' > .mvn/jvm.config", "bash", M),
    ("Write-Output '-XX:OnError=rm -rf ~'", "powershell", S),
    ("$env:JAVA_OPTS = '-Xmx2g'", "powershell", S),
    ("echo -XX:OnError=rm -rf ~", "cmd", S),
    ("set JAVA_OPTS=-Xmx2g", "cmd", S),
]


@pytest.mark.parametrize(("command", "shell", "level"), _JVM_NOT_RAISED)
def test_jvm_hook_text_as_data(command: str, shell: str, level: RiskLevel) -> None:
    assert _rated(command, shell) == level, command
