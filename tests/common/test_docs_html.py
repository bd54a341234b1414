"""The built docs read well in a browser at 1280 px (issue 27's defects, kept fixed) and
on a 390 px phone (issue 37).

Checked over the HTML of a docs build, without a browser:

- no page shows an empty primary sidebar ("Section Navigation"), a column that
  once took a quarter of the page from the code on the top-level pages, nor an
  "On this page" column without a section;
- every page of the index's toctree is a navbar link, "API reference" and
  "Examples" included, none hidden in the navbar's "More" menu;
- at most 2 % of the code lines (code blocks and printed output) of the top-level
  pages, the gallery and the API pages are longer than the content column holds
  at a 1280 px window;
- the methods of the public classes have their own anchors;
- every gallery figure is at most 505 px wide, so that shrunk to the 358 px column
  of a 390 px phone its smallest text stays 9 px (and, without a build, that no rule
  of the stylesheet lets an image be wider than the column, and that the gallery's
  figures are drawn 5 in wide at most, panels one above the other).

The HTML is taken from ``$SKLEARN_NDCG_DOCS_HTML`` or ``docs/_build/html``; the
tests skip when the latter is not there (but fail when the former is named and
missing) (build it with ``python -m sphinx -W --keep-going
-b html docs docs/_build/html``). How many characters the column holds comes from
the theme's widths and the project's stylesheet (``docs/_static/sklearn_ndcg.css``,
read from the build), calibrated against a real browser: ``docs/check_layout.py``
measured 116 characters of code per line in headless Chromium at 1280 px (four
fewer per level of indentation: a list item, a definition, a block quote).
"""

from __future__ import annotations

import os
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HTML = Path(os.environ.get("SKLEARN_NDCG_DOCS_HTML", ROOT / "docs" / "_build" / "html"))

# Named explicitly (as CI does after its docs build), the HTML must be there: no skip.
# The checks of the stylesheet's source (at the end) need no build.
needs_html = pytest.mark.skipif(
    "SKLEARN_NDCG_DOCS_HTML" not in os.environ and not (HTML / "index.html").is_file(),
    reason=f"the docs are not built in {HTML} (pip install '.[docs]', then "
    "python -m sphinx -W --keep-going -b html docs docs/_build/html)",
)

WINDOW = 1280  # px, the narrower of the two widths of issue 27 (1920 is easier)
REM = 16.0  # px
# The theme (pydata-sphinx-theme 0.16+) at a window of 1200 px or more: the page is
# centred and at most ``.bd-page-width``'s max-width wide; the secondary sidebar ("On
# this page") takes 17rem; the primary sidebar, where a page shows it, 25 %. Between
# them and the code: the padding of the article's container and of the article (1rem
# each side each) and the code block's own padding, 6rem in all (calibrated with
# Chromium by docs/check_layout.py: 116 characters at 1280 px, 140 at 1920 px).
SECONDARY_SIDEBAR = 17 * REM
PRIMARY_SIDEBAR_SHARE = 0.25
PADDING = 6 * REM
MONO_ADVANCE = 0.602  # width of a DejaVu Sans Mono character, in em
INDENT_CHARS = 4  # what each level of indentation costs the code (Chromium: 116 -> 112)
MAX_CUT_SHARE = 0.02
INDENTING = {"li", "dd", "blockquote"}


class _Page(HTMLParser):
    """The code lines (with their indentation level), sidebar and navbar of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str]] = []  # (tag, class) of the open elements
        self.blocks: list[tuple[int, str]] = []  # (indentation level, text)
        self.sidebar_classes: str | None = None
        self.sidebar_links = 0  # links of the sidebar, not of its copy of the navbar
        self.secondary = False  # the "On this page" column
        self.secondary_links = 0  # its links to sections (not "Show Source")
        self.navbar: list[str] = []
        self.navbar_dropdown = False
        self._pre_text: list[str] | None = None
        self._nav_text: list[str] | None = None

    def _inside(self, cls: str) -> bool:
        return any(cls in c.split() for _, c in self.stack)

    def handle_starttag(self, tag, attrs):
        cls = dict(attrs).get("class") or ""
        if tag in {"br", "img", "meta", "link", "input", "hr", "wbr", "source"}:
            return
        self.stack.append((tag, cls))
        if "bd-sidebar-primary" in cls.split():
            self.sidebar_classes = cls
        if "bd-sidebar-secondary" in cls.split():
            self.secondary = True
        if tag == "a" and self._inside("bd-sidebar-secondary") and self._inside("page-toc"):
            self.secondary_links += 1
        if tag == "a" and self._inside("bd-sidebar-primary"):
            if not self._inside("sidebar-header-items"):
                self.sidebar_links += 1
        in_header = self._inside("bd-header") and self._inside("navbar-header-items__center")
        if in_header and "dropdown" in cls.split():
            self.navbar_dropdown = True
        if in_header and tag == "a" and "nav-link" in cls.split():
            self._nav_text = []
        if tag == "pre" and self._inside("highlight"):
            self._pre_text = []

    def handle_endtag(self, tag):
        if tag == "pre" and self._pre_text is not None:
            level = sum(t in INDENTING for t, _ in self.stack[:-1])
            self.blocks.append((level, "".join(self._pre_text)))
            self._pre_text = None
        if tag == "a" and self._nav_text is not None:
            self.navbar.append(" ".join("".join(self._nav_text).split()))
            self._nav_text = None
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if self._pre_text is not None:
            self._pre_text.append(data)
        if self._nav_text is not None:
            self._nav_text.append(data)


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def _pages(api: bool = True) -> list[Path]:
    skip = {"genindex.html", "search.html", "py-modindex.html"}
    found = [p for p in sorted(HTML.glob("*.html")) if p.name not in skip]
    found += sorted((HTML / "auto_examples").glob("*.html"))
    if api:
        found += sorted((HTML / "generated").glob("*.html"))
    return found


def _sidebar_shown(page: _Page) -> bool:
    """Whether a wide window shows the primary sidebar."""
    return page.sidebar_classes is not None and "hide-on-wide" not in page.sidebar_classes


def _css_value(pattern: str, default: float) -> float:
    """A number from the project's stylesheet, as built (the theme's value otherwise)."""
    css = HTML / "_static" / "sklearn_ndcg.css"
    if not css.is_file():
        return default
    match = re.search(pattern, css.read_text(), flags=re.S)
    return float(match.group(1)) if match else default


def _capacity(page: _Page, window: int = WINDOW) -> float:
    """How many characters of code a line of the page's content column holds."""
    page_width = min(
        window, _css_value(r"\.bd-page-width\s*{[^}]*max-width:\s*([\d.]+)rem", 88) * REM
    )
    column = page_width - SECONDARY_SIDEBAR
    if _sidebar_shown(page):
        column -= PRIMARY_SIDEBAR_SHARE * page_width
    article = _css_value(r"bd-article-container\s*{[^}]*max-width:\s*([\d.]+)em", 60) * REM
    column = min(column, article) - PADDING
    font = _css_value(r"div\.highlight pre[^{]*{[^}]*font-size:\s*([\d.]+)em", 0.875) * REM
    return column / (MONO_ADVANCE * font)


def _lines(text: str) -> list[str]:
    return unescape(text).rstrip("\n").split("\n")


@needs_html
def test_html_is_found():
    assert (HTML / "index.html").is_file(), f"no docs build in {HTML}"
    pages = _pages()
    assert len(pages) > 20, [p.name for p in pages]


@needs_html
@pytest.mark.parametrize(
    "path", _pages(), ids=lambda p: str(p.relative_to(HTML)) if isinstance(p, Path) else str(p)
)
def test_no_empty_sidebar(path):
    page = _parse(path)
    if _sidebar_shown(page):
        assert page.sidebar_links > 0, (
            f"{path.name} shows an empty 'Section Navigation' sidebar; "
            "set html_sidebars in docs/conf.py"
        )
    if page.secondary:
        assert page.secondary_links > 0, (
            f"{path.name} shows an 'On this page' column without sections; set "
            "secondary_sidebar_items in docs/conf.py"
        )


@needs_html
def test_every_top_level_page_is_in_the_navbar():
    page = _parse(HTML / "index.html")
    assert not page.navbar_dropdown, f"the navbar hides links in a 'More' menu: {page.navbar}"
    assert {"API reference", "Examples"} <= set(page.navbar), page.navbar
    # one link per entry of the index's toctree
    toctree = re.search(
        r"\.\. toctree::\n((?:   .*\n|\n)*)", (ROOT / "docs" / "index.rst").read_text()
    )
    entries = [
        e for e in toctree.group(1).split("\n") if e.strip() and not e.strip().startswith(":")
    ]
    assert len(page.navbar) == len(entries), (page.navbar, entries)


@needs_html
def test_code_fits_the_column_at_1280px():
    total, cut = 0, []
    for path in _pages():
        page = _parse(path)
        capacity = _capacity(page)
        for level, text in page.blocks:
            for line in _lines(text):
                total += 1
                if len(line) > capacity - INDENT_CHARS * level:
                    cut.append(f"{path.relative_to(HTML)}: {line[:70]}... ({len(line)} chars)")
    assert total > 500
    share = len(cut) / total
    assert share <= MAX_CUT_SHARE, (
        f"{len(cut)} of {total} code lines ({share:.1%}) are longer than the content "
        "column holds at 1280 px:\n" + "\n".join(cut)
    )


@needs_html
def test_capacity_model_matches_chromium():
    # docs/check_layout.py in headless Chromium at 1280 px: 116 characters on a page
    # without primary sidebar (at 1920 px: 140, the article's max-width binding)
    page = _parse(HTML / "user_guide.html")
    assert not _sidebar_shown(page)
    assert 114 <= _capacity(page) <= 118
    assert 138 <= _capacity(page, window=1920) <= 142


@needs_html
@pytest.mark.parametrize(
    "anchor",
    [
        "sklearn_ndcg.RankingEvaluator.fit",
        "sklearn_ndcg.RankingEvaluator.score",
        "sklearn_ndcg.RankingEvaluator.predict",
        "sklearn_ndcg.NDCGCurveDisplay.from_estimator",
        "sklearn_ndcg.NDCGCurveDisplay.from_predictions",
        "sklearn_ndcg.NDCGCurveDisplay.plot",
        "sklearn_ndcg.ModelComparisonDisplay.from_comparison",
        "sklearn_ndcg.ModelComparisonDisplay.from_query_scores",
        "sklearn_ndcg.ModelComparison.to_frame",
        "sklearn_ndcg.ModelComparison.to_dict",
        "sklearn_ndcg.RepeatedGroupKFold.split",
        "sklearn_ndcg.QueryScores.to_frame",
    ],
)
def test_public_methods_have_anchors(anchor):
    cls = ".".join(anchor.split(".")[:2])
    page = (HTML / "generated" / f"{cls}.html").read_text(encoding="utf-8")
    assert f'id="{anchor}"' in page


# -- the stylesheet's source (no build needed): the rules behind issue 37's layout -----

CSS_SOURCE = ROOT / "docs" / "_static" / "sklearn_ndcg.css"
PHONE = 390  # px
PHONE_COLUMN = 358  # px of content at 390 px (the article's padding, 1rem each side)


def _css_rules() -> list[tuple[str | None, str, dict[str, str]]]:
    """(media query or None, selector, {property: value}) of every rule of the source."""
    css = re.sub(r"/\*.*?\*/", "", CSS_SOURCE.read_text(), flags=re.S)
    rules, media = [], None
    for token in re.finditer(r"(@media[^{]+)\{|([^{}]+)\{([^{}]*)\}|\}", css):
        if token.group(1):
            media = " ".join(token.group(1).split())
        elif token.group(2):
            body = dict(
                (name.strip(), value.strip())
                for name, _, value in (d.partition(":") for d in token.group(3).split(";"))
                if value.strip()
            )
            for selector in token.group(2).split(","):
                rules.append((media, " ".join(selector.split()), body))
        else:
            media = None
    return rules


def _declared(selector: str, prop: str, media: str | None = None) -> str | None:
    """The last value of ``prop`` for exactly ``selector`` (in ``media`` if given)."""
    values = [
        body[prop]
        for where, sel, body in _css_rules()
        if sel == selector
        and prop in body
        and (media is None or where == media)
        and (media is not None or where is None)
    ]
    return values[-1] if values else None


def _phone_media() -> str:
    """The media query of the phone rules: a max-width that a 390 px screen satisfies."""
    queries = {where for where, _, _ in _css_rules() if where and "max-width" in where}
    (query,) = queries
    width = float(re.search(r"max-width:\s*([\d.]+)px", query).group(1))
    assert PHONE <= width < 768, query  # phones, not tablets or laptops
    return query


def test_css_prose_lines_are_at_most_about_90_characters():
    value = _declared(".bd-article p", "max-width")
    assert value is not None and value.endswith("ch"), value
    # an average character of the body font is narrower than "0" (the ch): 72ch holds
    # about 90 characters of prose (docs/check_layout.py measures it in Chromium)
    assert 60 <= float(value[:-2]) <= 80


def test_css_wide_tables_scroll_inside_their_own_box():
    assert _declared(".bd-article table", "overflow-x") == "auto"
    assert _declared(".bd-article table", "max-width") == "100%"
    assert _declared(".bd-article table", "display") == "block"


def test_css_nothing_is_wider_than_the_column():
    assert _declared(".bd-article img", "max-width") == "100%"
    assert _declared(".bd-article img", "height") == "auto"
    assert _declared(".bd-article div.highlight pre", "max-width") == "100%"
    assert _declared(".bd-article div.highlight pre", "overflow-x") == "auto"
    assert _declared(".bd-article", "overflow-wrap") in {"break-word", "anywhere"}


def test_css_api_summaries_stack_on_a_phone():
    media = _phone_media()
    for selector in ("tr", "td"):
        assert _declared(f".bd-article table.autosummary {selector}", "display", media) == ("block")
    assert _declared(".bd-article table.autosummary td + td", "padding-left", media)


def test_gallery_figures_keep_legible_text_on_a_phone():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "gallery_figures", ROOT / "docs" / "gallery_figures.py"
    )
    module = importlib.util.module_from_spec(spec)
    pytest.importorskip("matplotlib")
    spec.loader.exec_module(module)
    width_px = module.FIGURES["figure.figsize"][0] * 100  # matplotlib's 100 dpi
    scale = min(1.0, PHONE_COLUMN / width_px)
    small_px = module.FIGURES["font.size"] * 0.833 * 100 / 72  # "small" text, in px
    assert scale * small_px >= 9.0
    conf = (ROOT / "docs" / "conf.py").read_text()
    assert '"gallery_figures.reset_figures"' in conf


SMALL_TEXT_PX = 11 * 0.833 * 100 / 72  # matplotlib's "small" of 11 pt at 100 dpi: 12.7 px
MAX_FIGURE_PX = PHONE_COLUMN * SMALL_TEXT_PX / 9.0  # shrunk to the column, text of 9 px


def test_css_figures_shrink_to_the_column_at_every_width():
    """No rule, for any screen, lets an image be wider than the column (a figure in a box
    that scrolls sideways hides its second panel on a phone)."""
    for media, selector, body in _css_rules():
        if re.search(r"\bimg\b", selector):
            assert body.get("max-width", "100%") == "100%", (media, selector, body)
            assert "width" not in body and "min-width" not in body, (media, selector, body)
    assert not (ROOT / "docs" / "_static" / "sklearn_ndcg.js").exists()
    assert "html_js_files" not in (ROOT / "docs" / "conf.py").read_text()


def test_gallery_figures_are_drawn_narrow_enough_for_a_phone():
    """Every figure of the gallery is drawn at most 5 in (500 px) wide, several panels one
    above the other, with no text below matplotlib's "small" (9.2 pt of 11)."""
    for example in sorted((ROOT / "docs" / "examples").glob("plot_*.py")):
        source = example.read_text()
        for width in re.findall(r"figsize=\(\s*([\d.]+)\s*,", source):
            assert float(width) <= 5.0, (example.name, width)
        for grid in re.findall(r"subplots\(\s*(\d+)\s*,\s*(\d+)", source):
            assert int(grid[1]) == 1, (example.name, "panels side by side", grid)
        for size in re.findall(r"fontsize=([\d.]+)", source):
            assert float(size) >= 11 * 0.833, (example.name, size)


def _png_width(path: Path) -> int:
    """The width of a PNG image, from its header (IHDR, bytes 16-19)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return int.from_bytes(head[16:20], "big")


@needs_html
def test_built_figures_keep_9px_text_in_a_phone_column():
    """Shrunk to the 358 px column of a 390 px phone, every gallery figure of the build
    keeps its smallest text at 9 px or more: at most 505 px wide."""
    figures = [
        png for png in sorted((HTML / "_images").glob("sphx_glr_*.png")) if "thumb" not in png.name
    ]
    assert figures
    too_wide = {png.name: _png_width(png) for png in figures if _png_width(png) > MAX_FIGURE_PX}
    assert not too_wide, too_wide


def test_verdict_tables_of_the_pages_fit_at_1280px():
    """The code blocks of the pages that print a verdict column hold lines the content
    column shows whole at 1280 px (112 characters in a block, 116 less an indentation)."""
    tables = 0
    for page in sorted((ROOT / "docs").glob("*.rst")):
        for block in re.findall(r"\.\. code-block:: text\n\n((?: {4}.*\n|\n)+)", page.read_text()):
            lines = [line[4:] for line in block.splitlines()]
            if any(re.search(r"\bverdict\s*$", line) for line in lines):
                tables += 1
                too_long = [line for line in lines if len(line) > 112]
                assert not too_long, (page.name, too_long)
    assert tables >= 1


def _png(width: int, height: int) -> bytes:
    """A blank grey PNG of ``width`` x ``height`` pixels (standard library only)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def test_check_layout_measures_a_true_phone(tmp_path):
    """docs/check_layout.py emulates a 390 px phone over the DevTools protocol (a headless
    window is never narrower than about 500 px) and counts a figure wider than the
    column: one drawn 900 px wide, without the stylesheet's rule, runs off it."""
    import importlib.util
    import shutil

    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("no chromium (Debian: apt-get install chromium)")
    spec = importlib.util.spec_from_file_location("check_layout", ROOT / "docs" / "check_layout.py")
    check_layout = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check_layout)
    (tmp_path / "wide.png").write_bytes(_png(900, 40))
    (tmp_path / "narrow.png").write_bytes(_png(300, 40))
    page = tmp_path / "page.html"
    page.write_text(
        '<!doctype html><html><head><meta name="viewport" content="width=device-width, '
        'initial-scale=1"></head><body style="margin:0"><article class="bd-article" '
        'style="padding:0 16px"><p>text</p><img src="narrow.png" style="max-width:100%">'
        '<div style="overflow-x:auto"><img src="wide.png"></div></article></body></html>'
    )
    profile = tmp_path / "profile"
    profile.mkdir()
    browser = check_layout.Browser(chromium, str(profile))
    try:
        phone = browser.tab(check_layout.device(390))
        measured = check_layout.measure(browser, phone, page)
        laptop = browser.tab(check_layout.device(1280))
        wide = check_layout.measure(browser, laptop, page)
    finally:
        browser.close()
    assert measured["inner_width"] == 390
    assert measured["column"] == 358
    assert measured["figure_wide"] == 1 and measured["figure_widest"] == 900
    assert wide["inner_width"] == 1280 and wide["figure_wide"] == 0
