"""The README and the documentation site: every shell and Python command they show runs
(a block marked ``<!-- not run: REASON -->`` is skipped with that reason, one marked
``<!-- run if data: NAME -->`` runs where that data set is found), the generated
reference pages are current, the README keeps CI's set-up commands and its links
resolve, and no page cites a commit."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md"] + sorted(p for p in DOCS.rglob("*.md")
                                      if p.parent.name != "reference")
FENCE = re.compile(r"(?:<!-- (not run|run if data): ([^>]*?) -->\n)?```(\w*)\n(.*?)```",
                   re.S)
RUNNERS = {"python": [sys.executable, "-c"], "bash": ["bash", "-euo", "pipefail", "-c"]}


def code_blocks():
    """(page, line, language, marker, argument, code) of every fenced block."""
    for page in PAGES:
        text = page.read_text()
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start(3 if m.group(1) is None else 1)) + 1
            yield page, line, m.group(3), m.group(1), (m.group(2) or "").strip(), m.group(4)


BLOCKS = [b for b in code_blocks() if b[2] in RUNNERS]


def test_every_block_is_a_command_or_says_what_it_is():
    """A fence names its language; text that is not a command says so (```text)."""
    unnamed = [f"{page.relative_to(ROOT)}:{line}" for page, line, lang, *_ in code_blocks()
               if not lang]
    assert not unnamed, unnamed
    assert BLOCKS, "no runnable blocks found"


def _environment():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    for key in [k for k in env if k.startswith(("NETWORKX_BACKEND_PRIORITY", "NX_GPUSP_"))]:
        if key not in ("NX_GPUSP_DATA", "NX_GPUSP_DATA_CACHE"):
            del env[key]
    return env


@pytest.mark.parametrize("page,line,language,marker,argument,code", BLOCKS,
                         ids=[f"{b[0].relative_to(ROOT)}:{b[1]}" for b in BLOCKS])
def test_command_runs(page, line, language, marker, argument, code, tmp_path):
    if marker == "not run":
        pytest.skip(argument)
    if marker == "run if data":
        from nx_gpusp import datasets

        try:
            datasets.find(argument)
        except FileNotFoundError:
            pytest.skip(f"data set {argument} not found here")
    if language == "bash" and "python " in code:
        code = code.replace("python ", f"{sys.executable} ")
    result = subprocess.run(RUNNERS[language] + [code], cwd=ROOT, env=_environment(),
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, (f"{page.relative_to(ROOT)}:{line} failed\n"
                                    f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")


def test_generated_pages_are_current():
    """docs/reference/ is what tools/gen_docs.py makes of the code (run it after adding
    or changing a function, a method, a dispatch policy or an option)."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import gen_docs
    finally:
        sys.path.remove(str(ROOT / "tools"))
    for path, text in gen_docs.render().items():
        assert path.read_text() == text, f"{path} not current: run python tools/gen_docs.py"


def test_readme_is_short_and_keeps_cis_commands():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 200
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    development = readme[readme.index("## Development"):]
    start = development.index("```bash\n") + len("```bash\n")
    block = development[start:development.index("```", start)]
    assert block.splitlines() == ["python -m pip install -e \".[test]\"", "python -m pytest"]
    for command in block.splitlines():
        assert command in ci, f"README's {command!r} is not what .ci/run runs"
    assert "bash tools/ci_docs.sh" in ci


def test_readme_links_resolve():
    readme = (ROOT / "README.md").read_text()
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target


COMMIT = re.compile(r"(?<![0-9a-fA-F])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,12}"
                    r"(?![0-9a-fA-F])")


def test_no_page_cites_a_commit():
    """The pages describe the software as it is; history lives in git and asv."""
    for page in PAGES + sorted((DOCS / "reference").glob("*.md")):
        text = re.sub(r"[0-9a-f]{64}", "", page.read_text())  # SHA-256 checksums
        found = COMMIT.findall(text)
        assert not found, f"{page.relative_to(ROOT)} cites {found}"


def test_every_option_is_on_the_options_page():
    from nx_gpusp.config import OPTIONS

    page = (DOCS / "reference" / "options.md").read_text()
    assert all(f"| `{key}` |" in page for key in OPTIONS)


def test_files_named_on_the_pages_exist():
    """A script, test or module a page names is in the repository (a removed tool takes
    its mentions with it)."""
    named = re.compile(r"(?:tools|tests|nx_gpusp|kernels)/[\w/]+\.(?:py|sh|cuh|cu|c|json)\b")
    for page in PAGES:
        for path in set(named.findall(page.read_text())):
            assert (ROOT / path).exists(), f"{page.relative_to(ROOT)} names {path}"
