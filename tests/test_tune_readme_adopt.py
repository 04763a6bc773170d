"""`tune readme` on a README the agent wrote from the seed's template (issue 24 item 7): each section batchlog owns
takes the place of the text under the template's heading of its name, the agent's own text stays, nothing is
duplicated, the markers are added; a marked section deleted by hand is put back, and `--check` names it."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from batchlog.projections.tune.views.readme.document import (
    HEADINGS,
    SECTION_NAMES,
    begin,
    end,
    heading,
    layout,
    update,
)
from tests.clirunner import invoke
from tests.seeds import README_TEMPLATE, require
from tests.test_tune_readme import IN_PROGRESS, copy_fixture, outside_markers

# What batchlog renders, each with a heading of its own inside (opaque: between markers no heading counts).
RENDERED = {name: f"**{name}** from the log\n\n### Inside {name}\n\n- a line" for name in SECTION_NAMES}
ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*$")


def template() -> str:
    require(README_TEMPLATE)
    return README_TEMPLATE.read_text(encoding="utf-8")


def template_parts() -> tuple[str, dict[str, str]]:
    """(what comes before the first heading batchlog owns, the text of each section batchlog owns: its heading and
    the text under it up to the next heading of the same or a higher level, or the next heading it owns)."""
    text = template()
    starts = sorted((text.index("\n" + heading(name) + "\n") + 1, name) for name in SECTION_NAMES)
    preamble = text[: starts[0][0]]
    bounds = [*(start for start, _ in starts[1:]), len(text)]
    return preamble, {name: text[start:stop] for (start, name), stop in zip(starts, bounds)}


def headings_outside(text: str) -> list[str]:
    """The ATX headings outside markers and code fences, as written."""
    found, fenced = [], False
    for line in outside_markers(text):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and ATX.match(line):
            found.append(line.strip())
    return found


def is_subsequence(lines: list[str], of: list[str]) -> bool:
    rest = iter(of)
    return all(any(line == other for other in rest) for line in lines)


# ─── generated READMEs ──────────────────────────────────────────────────────

OWNED_WORDS = {words.casefold() for _, words in HEADINGS.values()}
PLAIN = st.text(st.characters(codec="utf-8", exclude_characters="\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"),
                max_size=30).filter(lambda line: not re.match(r"^\s*(#|`{3}|~{3}|<!--)", line))
WORDS = st.text("abcdefghij xyz", min_size=1, max_size=12).map(str.strip).filter(
    lambda words: words and words.casefold() not in OWNED_WORDS)


@st.composite
def agent_section(draw) -> list[str]:
    """The agent's own section: a level-2 heading of its own words, paragraphs, sometimes code with a `#` line."""
    lines = [f"## {draw(WORDS)}", ""]
    lines += draw(st.lists(PLAIN, min_size=1, max_size=4))
    if draw(st.booleans()):
        lines += ["", "```sh", "# a comment in code, not a heading", "## nor this", "```"]
    return lines + [""]


@st.composite
def edited(draw, name: str, text: str) -> str:
    """The template's section as the agent patched it: as written, or its body replaced by other lines (with a
    subheading of the agent's under it now and then)."""
    if draw(st.booleans()):
        return text
    body = draw(st.lists(PLAIN, max_size=5))
    level = HEADINGS[name][0]
    if draw(st.booleans()):
        body += ["", "#" * (level + 1) + " " + draw(WORDS), *draw(st.lists(PLAIN, max_size=2))]
    return "\n".join([heading(name), "", *body, "", ""])


@st.composite
def readmes(draw) -> tuple[str, list[str], list[str]]:
    """(a README from the template: sections removed, reordered, edited, the agent's own sections between them;
    the lines of the agent's own text, in order; the sections it holds, in order)."""
    preamble, parts = template_parts()
    names = draw(st.lists(st.sampled_from(SECTION_NAMES), unique=True, min_size=1))
    own: list[str] = preamble.split("\n")[:-1]
    chunks = [preamble]
    for name in names:
        if draw(st.integers(0, 3)) == 0:
            section = draw(agent_section())
            own += section
            chunks.append("\n".join(section) + "\n")
        chunks.append(draw(edited(name, parts[name])))
    if draw(st.booleans()):
        section = draw(agent_section())
        own += section
        chunks.append("\n".join(section) + "\n")
    return "".join(chunks), [line for line in own if line.strip()], names


class TestAdoption:
    def test_the_template_as_written_is_taken_over_section_by_section(self):
        text = template()

        adopted = update(text, RENDERED)

        assert adopted.adopted == SECTION_NAMES and adopted.restored == ()
        assert headings_outside(adopted.text) == ["# Fine-tuning <project name>", *map(heading, SECTION_NAMES)]
        assert adopted.text.startswith(text[: text.index("## Where we are")])  # the comment, title, intro stay
        assert "55 to go" not in adopted.text and "| planning   |" not in adopted.text
        for name in SECTION_NAMES:
            assert f"{heading(name)}\n\n{begin(name)}\n{RENDERED[name]}\n{end(name)}\n" in adopted.text

    @given(readmes())
    def test_adoption_keeps_the_agents_text_duplicates_no_heading_and_is_idempotent(self, readme):
        text, own, names = readme

        once = update(text, RENDERED)
        twice = update(once.text, RENDERED)

        assert is_subsequence(own, once.text.split("\n"))
        found = headings_outside(once.text)
        assert all(found.count(heading(name)) == 1 for name in SECTION_NAMES)
        assert [line for line in found if line.startswith("# ")] == ["# Fine-tuning <project name>"]
        assert all(once.text.count(begin(name)) == 1 == once.text.count(end(name)) for name in SECTION_NAMES)
        assert (set(once.adopted), set(once.restored)) == (set(names), set(SECTION_NAMES) - set(names))
        assert (twice.text, twice.adopted, twice.restored) == (once.text, (), ())

    def test_a_heading_in_code_or_a_comment_is_not_the_templates(self):
        text = "# Mine\n\n```sh\n## Map\n```\n\n<!--\n## Log\n-->\n\n## Where we are\n\nold\n"

        adopted = update(text, RENDERED)

        assert adopted.adopted == ("where",)
        assert "```sh\n## Map\n```\n\n<!--\n## Log\n-->\n" in adopted.text
        assert headings_outside(adopted.text).count("## Map") == 1  # the one put back (the fenced one is code)

    def test_a_heading_is_the_templates_in_any_case_and_spacing_at_its_own_level_only(self):
        text = "## where  WE are ##\n\nold\n\n## Settings\n\nmine\n"

        adopted = update(text, RENDERED)

        assert adopted.adopted == ("where",)
        assert adopted.text.startswith(f"## where  WE are ##\n\n{begin('where')}\n")
        assert "## Settings\n\nmine\n" in adopted.text  # the template's Settings is a level-3 heading


class TestPutBack:
    def test_a_deleted_section_comes_back_before_the_next_one_the_readme_has(self):
        full = update(template(), RENDERED).text
        cut = full.replace(f"{heading('map')}\n\n{begin('map')}\n{RENDERED['map']}\n{end('map')}\n\n", "")

        back = update(cut, RENDERED)

        assert back.restored == ("map",) and back.text == full

    def test_a_deleted_last_section_comes_back_after_the_one_before_it_before_the_agents_next_heading(self):
        text = layout(RENDERED).replace(f"{heading('next')}\n\n{begin('next')}\n{RENDERED['next']}\n{end('next')}\n",
                                        "## Appendix\n\nmine\n")

        back = update(text, RENDERED)

        assert back.restored == ("next",)
        assert back.text.endswith(f"{end('results')}\n\n{heading('next')}\n\n{begin('next')}\n{RENDERED['next']}\n"
                                  f"{end('next')}\n\n## Appendix\n\nmine\n")

    @given(readmes(), st.data())
    def test_sections_deleted_after_adoption_come_back_once_and_the_agents_text_stays(self, readme, data):
        text, own, _ = readme
        adopted = update(text, RENDERED).text
        deleted = data.draw(st.lists(st.sampled_from(SECTION_NAMES), unique=True, min_size=1,
                                     max_size=len(SECTION_NAMES) - 1))
        for name in deleted:
            section = f"{begin(name)}\n{RENDERED[name]}\n{end(name)}\n"
            cut = data.draw(st.sampled_from([f"{heading(name)}\n\n{section}", section]))  # with its heading or not
            adopted = adopted.replace(cut + "\n", "") if cut + "\n" in adopted else adopted.replace(cut, "")

        back = update(adopted, RENDERED)

        assert set(back.restored) | set(back.adopted) == set(deleted)
        assert is_subsequence(own, back.text.split("\n"))
        assert all(headings_outside(back.text).count(heading(name)) == 1 for name in SECTION_NAMES)
        assert update(back.text, RENDERED).text == back.text

    def test_markers_deleted_under_a_heading_left_in_place_go_back_under_it(self):
        text = layout(RENDERED).replace(f"{begin('log')}\n{RENDERED['log']}\n{end('log')}", "hand-written log")

        back = update(text, RENDERED)

        assert (back.adopted, back.restored) == (("log",), ())
        assert back.text == layout(RENDERED)


class TestNothingOfTheTemplate:
    def test_a_readme_without_markers_or_template_headings_gets_the_layout_once(self):
        text = "# My tuning\n\n## Notes\n\nmine\n"

        once = update(text, RENDERED)

        assert once.text == text + "\n" + layout(RENDERED)
        assert update(once.text, RENDERED).text == once.text


class TestReadmeCommand:
    def test_a_template_readme_is_taken_over_and_the_command_says_which_sections(self, tmp_path):
        folder = copy_fixture(IN_PROGRESS, tmp_path / "t")
        (folder / "README.md").write_text(template(), encoding="utf-8")

        stale = invoke("tune", "readme", "--dir", folder, "--check")
        written = invoke("tune", "readme", "--dir", folder)
        fresh = invoke("tune", "readme", "--dir", folder, "--check")

        names = ", ".join(SECTION_NAMES)
        assert stale.code == 1
        assert stale.err == (f"{folder / 'README.md'} is stale: the template's sections {names} have no markers yet: "
                             "run the same command without --check to rewrite it\n")
        assert (written.code, written.err) == (0, "")
        assert written.out == (f"{folder / 'README.md'}: written; the template's sections {names} are now between "
                               "batchlog's markers\n")
        assert (fresh.code, fresh.out, fresh.err) == (0, "", "")
        text = (folder / "README.md").read_text(encoding="utf-8")
        assert text.count("## Where we are") == 1 and text.count("\n# ") == 1

    def test_check_names_a_deleted_section_and_the_next_run_puts_it_back(self, tmp_path):
        folder = copy_fixture(IN_PROGRESS, tmp_path / "t")
        invoke("tune", "readme", "--dir", folder)
        path = folder / "README.md"
        whole = path.read_text(encoding="utf-8")
        start, stop = whole.index("\n## Map\n") + 1, whole.index("\n## Batches\n") + 1
        path.write_text(whole[:start] + whole[stop:], encoding="utf-8")

        check = invoke("tune", "readme", "--dir", folder, "--check")
        again = invoke("tune", "readme", "--dir", folder)

        assert check.code == 1 and "+## Map" in check.out
        assert check.err == (f"{path} is stale: the section map is missing: run the same command without --check to "
                             "rewrite it\n")
        assert again.out == f"{path}: written; the section map is back\n"
        assert path.read_text(encoding="utf-8") == whole

    def test_json_says_what_was_taken_over_and_put_back(self, tmp_path):
        import json

        folder = copy_fixture(IN_PROGRESS, tmp_path / "t")
        (folder / "README.md").write_text("# Mine\n\n## Where we are\n\nold\n", encoding="utf-8")

        body = json.loads(invoke("tune", "readme", "--dir", folder, "--json").out)

        assert body["adopted"] == ["where"] and body["restored"] == list(SECTION_NAMES[1:])
        assert body["written"] is True
