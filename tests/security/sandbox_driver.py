"""Runs commands in `shell_tool`'s sandbox as whichever user starts it, for the escape suite's
unprivileged run: JSON `{"workspace": …, "commands": […]}` on stdin, JSON answers on stdout.
"""

from __future__ import annotations

import json
import sys

from agentc.stdlib.middleware.shell_tool import ShellTool


def main() -> None:
    job = json.load(sys.stdin)
    tool = ShellTool(workspace_root=job["workspace"], timeout=float(job["timeout"]))
    answers = [tool.run(command).text() for command in job["commands"]]
    json.dump(answers, sys.stdout)


if __name__ == "__main__":
    main()
