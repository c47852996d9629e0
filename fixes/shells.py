"""Exact commands, for the user's shells, that put a folder in front of PATH or
LD_LIBRARY_PATH. The doctor prints them; it never changes the environment itself."""

from __future__ import annotations


def path_commands(folder: str, windows: bool) -> tuple[tuple[str, str], ...]:
    """(shell, command) pairs: this session first, then the permanent form."""
    if windows:
        return (
            ("cmd", f'set "PATH={folder};%PATH%"'),
            ("PowerShell", f'$env:Path = "{folder};" + $env:Path'),
            ("PowerShell (permanent, user PATH)",
             f'[Environment]::SetEnvironmentVariable("Path", "{folder};" + '
             '[Environment]::GetEnvironmentVariable("Path", "User"), "User")'),
            ("bash (Git Bash)", f"export PATH=\"$(cygpath -u '{folder}'):$PATH\""),
        )
    line = f'export LD_LIBRARY_PATH="{folder}${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}"'
    return (("bash", line), ("bash (permanent)", f"echo '{line}' >> ~/.bashrc"))


def set_commands(name: str, value: str, windows: bool) -> tuple[tuple[str, str], ...]:
    """(shell, command) pairs that set an environment variable for this session."""
    bash = ("bash", f"export {name}='{value}'")
    if windows:
        return (("cmd", f'set "{name}={value}"'), ("PowerShell", f'$env:{name} = "{value}"'), bash)
    return (bash,)
