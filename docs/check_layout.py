"""Measure the built HTML in headless Chromium: on a phone (390 px) and a laptop (1280 px).

Run after a docs build, with Chromium installed (Debian: ``apt-get install chromium``)::

    python docs/check_layout.py docs/_build/html            # 390 and 1280 px
    python docs/check_layout.py docs/_build/html --width 1920 --all

For each page (the top-level pages and the gallery; ``--all`` adds the API pages) and
each window width, a script injected into a copy of the page measures, once the theme's
CSS has been applied:

- every code block and printed output (``div.highlight pre``): how many of its lines are
  wider than the part of the block that shows (a line is measured in the block's own
  font, so it is cut off when the reader has to scroll sideways to read it);
- whether the primary sidebar ("Section Navigation") takes room without a single link;
- whether "API reference" and "Examples" are navbar links, not inside the "More" menu;
- whether the page title is wider than the content column;
- whether the page as a whole is wider than the window (it scrolls sideways);
- the descriptions of the API's summary tables that lie outside the window;
- the figures: the smallest scale at which one is shown (rendered / natural width), and
  so the size of its smallest text (``small`` of 11 pt, 12.7 px at 100 dpi);
- the prose: characters per line of the paragraphs of three lines or more (the most).

It prints one row per page and width, then the totals, and exits 1 on a regression:
at a laptop width (1200 px or more) more than 1 % of the code lines cut off, any line of
a verdict table (a block with a ``verdict`` column) cut off, prose lines over 95
characters, or a navbar link hidden; at any width a page wider than the window, an API
description off-screen, figure text under 9 px, or an empty sidebar. Nothing is
downloaded: the pages load only their own files (``file://``).

The test ``tests/common/test_docs_html.py`` checks the same things statically (no
browser) from the HTML and the theme's widths; this script is the measure in a real
browser.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

MEASURE = r"""
<script>
window.addEventListener("load", () => setTimeout(() => {
  const out = {blocks: 0, scrolling: 0, lines: 0, cut: 0, verdict_cut: 0, examples: []};
  for (const pre of document.querySelectorAll("article div.highlight pre")) {
    if (pre.offsetParent === null) continue;  // hidden (e.g. a collapsed block)
    const style = getComputedStyle(pre);
    const visible = pre.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight);
    const probe = document.createElement("span");
    probe.style.cssText = "position:absolute;visibility:hidden;white-space:pre;left:0;top:0";
    pre.appendChild(probe);
    const lines = pre.textContent.replace(/\n+$/, "").split("\n");
    const verdict = /\bverdict\s*$/m.test(pre.textContent);  // a table with a verdict column
    probe.textContent = "0".repeat(100);
    const capacity = Math.floor(100 * visible / probe.getBoundingClientRect().width);
    out.capacity = Math.min(out.capacity ?? capacity, capacity);
    out.blocks += 1;
    if (pre.scrollWidth > pre.clientWidth + 1) out.scrolling += 1;
    for (const line of lines) {
      probe.textContent = line;
      out.lines += 1;
      if (probe.getBoundingClientRect().width > visible + 0.5) {
        out.cut += 1;
        if (verdict) out.verdict_cut += 1;
        if (out.examples.length < 3) out.examples.push(line.slice(0, 90));
      }
    }
    probe.remove();
  }
  const side = document.querySelector("#pst-primary-sidebar");
  out.sidebar_width = side && side.offsetParent !== null ? side.offsetWidth : 0;
  out.sidebar_links = side ? [...side.querySelectorAll("a")]
    .filter(a => a.offsetParent !== null).length : 0;
  const nav = [...document.querySelectorAll(".bd-header .navbar-header-items__center "
    + "ul.navbar-nav > li.nav-item > a.nav-link")].filter(a => a.offsetParent !== null)
    .map(a => a.textContent.trim());
  out.navbar = nav;
  out.page_wide = document.documentElement.scrollWidth > window.innerWidth + 1;
  out.api_off = [...document.querySelectorAll("article table.autosummary td:nth-child(2)")]
    .filter(td => { const r = td.getBoundingClientRect();
                    return r.width > 0 && (r.right > window.innerWidth + 1 || r.left < -1); })
    .length;
  const scales = [...document.querySelectorAll("article img")]
    .filter(img => img.naturalWidth > 200 && img.offsetParent !== null
                   && !img.closest(".sphx-glr-thumbcontainer"))  // figures, not thumbnails
    .map(img => img.getBoundingClientRect().width / img.naturalWidth);
  out.figure_scale = scales.length ? Math.min(...scales) : null;
  let prose = 0;
  for (const p of document.querySelectorAll("article p")) {
    if (p.closest("table, pre, .sphx-glr-thumbcontainer, nav")) continue;
    const lineHeight = parseFloat(getComputedStyle(p).lineHeight);
    const rows = Math.round(p.getBoundingClientRect().height / lineHeight);
    if (rows >= 3) prose = Math.max(prose, p.textContent.length / rows);
  }
  out.prose_chars = Math.round(prose);
  const h1 = document.querySelector("article h1");
  const article = document.querySelector("article");
  out.title_cut = !!(h1 && article && h1.scrollWidth > article.clientWidth + 1);
  const pre = document.createElement("pre");
  pre.id = "__layout_measure__";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
}, 200));
</script>
"""

MAX_CUT_SHARE = 0.01  # of the code lines, at a laptop width
MAX_PROSE_CHARS = 95  # per line of a paragraph, at a laptop width (the CSS aims at ~90)
SMALL_TEXT_PX = 12.7  # matplotlib's "small" text of 11 pt at 100 dpi (gallery_figures.py)
MIN_FIGURE_TEXT_PX = 9.0

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--virtual-time-budget=5000",
    "--run-all-compositor-stages-before-draw",
]


def pages(root: Path, include_api: bool) -> list[Path]:
    """The pages to measure: top-level pages, the gallery, and optionally the API."""
    skip = {"genindex.html", "search.html", "py-modindex.html"}
    found = [p for p in sorted(root.glob("*.html")) if p.name not in skip]
    found += sorted((root / "auto_examples").glob("*.html"))
    if include_api:
        found += sorted((root / "generated").glob("*.html"))
    return found


def measure(chromium: str, page: Path, width: int, profile: str) -> dict:
    """Inject the measuring script into a copy of ``page`` and read its result."""
    html = page.read_text(encoding="utf-8")
    probe = page.with_name(f"__measure__{page.name}")
    probe.write_text(html.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    try:
        dom = subprocess.run(
            [
                chromium,
                *CHROMIUM_FLAGS,
                f"--user-data-dir={tempfile.mkdtemp(dir=profile)}",
                f"--window-size={width},900",
                "--dump-dom",
                probe.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        ).stdout
    finally:
        probe.unlink()
    start = dom.find('id="__layout_measure__"')
    if start < 0:
        raise RuntimeError(f"no measure from {page} (is Chromium working?)")
    start = dom.index(">", start) + 1
    text = dom[start : dom.index("</pre>", start)]
    return json.loads(
        text.replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("html", type=Path, help="the built HTML (sphinx -b html output)")
    parser.add_argument("--width", type=int, action="append", help="window widths (px)")
    parser.add_argument("--all", action="store_true", help="also the API pages")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    args = parser.parse_args(argv)
    widths = args.width or [390, 1280]
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "html"
        shutil.copytree(args.html, root)
        profile = os.path.join(tmp, "profile")
        os.mkdir(profile)
        for width in widths:
            total_lines = total_cut = blocks = scrolling = 0
            print(f"--- window {width} x 900 px")
            print(
                f"{'page':48} {'blocks':>6} {'lines':>6} {'cut':>5}  sidebar  title  chars"
                "  wide  api-off  fig-px  prose"
            )
            laptop = width >= 1200
            verdict_cut = 0
            for page in pages(root, args.all):
                res = measure(args.chromium, page, width, profile)
                name = str(page.relative_to(root))
                empty_sidebar = res["sidebar_width"] > 0 and res["sidebar_links"] == 0
                side = (
                    "EMPTY"
                    if empty_sidebar
                    else (f"{res['sidebar_width']}px" if res["sidebar_width"] else "-")
                )
                scale = res["figure_scale"]
                figure_px = None if scale is None else scale * SMALL_TEXT_PX
                print(
                    f"{name:48} {res['blocks']:6d} {res['lines']:6d} {res['cut']:5d}  "
                    f"{side:7}  {'CUT' if res['title_cut'] else 'ok':5}  "
                    f"{res.get('capacity', '-')!s:>5}  {'WIDE' if res['page_wide'] else 'ok':4}  "
                    f"{res['api_off']:7d}  {'-' if figure_px is None else f'{figure_px:.1f}':>6}  "
                    f"{res['prose_chars']:5d}"
                )
                verdict_cut += res["verdict_cut"]
                failed |= res["page_wide"] or res["api_off"] > 0
                failed |= figure_px is not None and figure_px < MIN_FIGURE_TEXT_PX
                failed |= laptop and res["prose_chars"] > MAX_PROSE_CHARS
                for line in res["examples"]:
                    print(f"{'':10}cut: {line}")
                total_lines += res["lines"]
                total_cut += res["cut"]
                blocks += res["blocks"]
                scrolling += res["scrolling"]
                failed |= empty_sidebar
                missing = {"API reference", "Examples"} - set(res["navbar"])
                if laptop and missing and page.parent == root:
                    print(f"{'':10}navbar hides: {sorted(missing)} (shows {res['navbar']})")
                    failed = True
            share = total_cut / max(total_lines, 1)
            print(
                f"total at {width} px: {total_cut} of {total_lines} code lines cut off "
                f"({share:.1%}, {verdict_cut} in verdict tables); {scrolling} of {blocks} "
                "blocks scroll sideways"
            )
            if laptop:
                failed |= share > MAX_CUT_SHARE or verdict_cut > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
