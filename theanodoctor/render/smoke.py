"""The smoke-test report as text: a line per stage with timings, GPU facts, one verdict."""

from __future__ import annotations

from rich.text import Text

from theanodoctor.render.style import Style
from theanodoctor.render.text import PLAIN, _console, _glyph
from theanodoctor.smoke.result import SmokeResult, Stage


def _seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value * 1000:.2f} ms" if value < 1 else f"{value:.2f} s"


def _status(stage: Stage) -> str:
    if stage.passed:
        return "ok"
    return "timeout" if (stage.error or "").startswith("Timeout") else "error"


def _stage_line(stage: Stage, style: Style) -> Text:
    glyph, colour = _glyph(_status(stage), style)
    line = Text.assemble((glyph, f"bold {colour}"), " ", (stage.name, "bold"))
    if stage.compile_s is not None:
        line.append(f"  compile {_seconds(stage.compile_s)}, run {_seconds(stage.run_s)}")
    if stage.ran_on:
        line.append(f"  on {stage.ran_on}", style="dim")
    if stage.error:
        line.append(": " + stage.error)
    return line


def render_smoke(result: SmokeResult, style: Style = PLAIN) -> str:
    console = _console(style)
    versions = result.versions
    head = f"smoke test of {result.python} (device={result.device}"
    if versions.get("theano"):
        head += f", Theano {versions['theano']}, numpy {versions.get('numpy')}"
    head += ", fresh compile cache)" if result.fresh_cache else ", user's compile cache)"
    console.print(Text(head, style="dim"))
    for stage in result.stages:
        console.print(_stage_line(stage, style))
    gpu = result.gpu
    if gpu.get("matmul_speedup") is not None:
        console.print(Text(f"    matmul speed-up over the CPU: {gpu['matmul_speedup']:g}x "
                           f"(CPU {_seconds(gpu.get('matmul_cpu_run_s'))})"))
    if gpu.get("cudnn"):
        console.print(Text(f"    cuDNN: {gpu['cudnn']}"))
    elif "conv_uses_cudnn" in gpu:
        console.print(Text(f"    conv uses cuDNN: {'yes' if gpu['conv_uses_cudnn'] else 'no'}"))
    arrow = "→" if style.unicode else "->"
    if result.diagnosis:
        console.print(Text("    why: ", style="dim") + Text(result.diagnosis["cause"]))
        console.print(Text(f"    {arrow} ") + Text(result.diagnosis["remedy"]))
    colour = "green" if result.exit_code == 0 else "red"
    console.print(Text.assemble(("Verdict: ", "bold"), (result.verdict, f"bold {colour}"),
                                (f"  ({result.elapsed_s:.1f} s)", "dim")))
    return str(console.file.getvalue())  # type: ignore[attr-defined]
