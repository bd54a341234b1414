"""Measure the built HTML in headless Chromium: on a phone (390 px) and a laptop (1280 px).

Run after a docs build, with Chromium installed (Debian: ``apt-get install chromium``)::

    python docs/check_layout.py docs/_build/html            # 390 and 1280 px
    python docs/check_layout.py docs/_build/html --width 1920 --all

Chromium is driven over the DevTools protocol (``--remote-debugging-pipe``, standard
library only). A width under 600 px is a phone, emulated with
``Emulation.setDeviceMetricsOverride`` (390 x 844 CSS px, 3 device pixels each, mobile
viewport): a headless window is never narrower than about 500 px, so asking for a
390 px window measured 500 px. Wider widths are a laptop, 900 px high. The table shows
the page's ``window.innerWidth`` and the content column as measured.

For each page (the top-level pages and the gallery; ``--all`` adds the API pages) and
each width, a script injected into a copy of the page measures, once the theme's CSS
has been applied:

- every code block and printed output (``div.highlight pre``): how many of its lines are
  wider than the part of the block that shows (a line is measured in the block's own
  font, so it is cut off when the reader has to scroll sideways to read it);
- whether the primary sidebar ("Section Navigation") takes room without a single link;
- whether "API reference" and "Examples" are navbar links, not inside the "More" menu;
- whether the page title is wider than the content column;
- whether the page as a whole is wider than the window (it scrolls sideways);
- the descriptions of the API's summary tables that lie outside the window;
- the figures: the smallest scale at which one is shown (rendered / natural width), and
  so the size of its smallest text (``small`` of 11 pt, 12.7 px at 100 dpi); and how
  many are wider than the content column (shown in a box that scrolls, or running off);
- the prose: characters per line of the paragraphs of three lines or more (the most).

It prints one row per page and width, then the totals, and exits 1 on a regression:
at a laptop width (1200 px or more) more than 1 % of the code lines cut off, any line of
a verdict table (a block with a ``verdict`` column) cut off, prose lines over 95
characters, or a navbar link hidden; at any width a page wider than the window, an API
description off-screen, a figure wider than the column, figure text under 9 px, or an
empty sidebar. Nothing is downloaded: the pages load only their own files (``file://``).

The test ``tests/common/test_docs_html.py`` checks the same things statically (no
browser) from the HTML and the theme's widths; this script is the measure in a real
browser.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
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
  const figures = [...document.querySelectorAll("article img")]
    .filter(img => img.naturalWidth > 200 && img.offsetParent !== null
                   && !img.closest(".sphx-glr-thumbcontainer"));  // figures, not thumbnails
  const scales = figures.map(img => img.getBoundingClientRect().width / img.naturalWidth);
  out.figure_scale = scales.length ? Math.min(...scales) : null;
  // the content column: the article's box less its padding
  const col = document.querySelector("article.bd-article") || document.querySelector("article");
  const colStyle = getComputedStyle(col);
  const colBox = col.getBoundingClientRect();
  const colLeft = colBox.left + parseFloat(colStyle.paddingLeft);
  const colRight = colBox.right - parseFloat(colStyle.paddingRight);
  out.column = Math.round(colRight - colLeft);
  // a figure wider than the column (shown in a box that scrolls, or running off it)
  const wide = figures.filter(img => img.getBoundingClientRect().width > colRight - colLeft + 1);
  out.figure_wide = wide.length;
  out.figure_widest = wide.length
    ? Math.round(Math.max(...wide.map(img => img.getBoundingClientRect().width))) : 0;
  out.inner_width = window.innerWidth;
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
    "--remote-debugging-pipe",  # the DevTools protocol on file descriptors 3 and 4
]

PHONE_WIDTH = 600  # below it, a width is a phone's: emulated as one (touch, 3x pixels)


def device(width: int) -> dict:
    """The device metrics emulated at ``width``: a phone below 600 px, else a laptop."""
    if width < PHONE_WIDTH:  # an iPhone 12-15: 390 x 844 CSS px at 3 device px each
        return {"width": width, "height": 844, "deviceScaleFactor": 3, "mobile": True}
    return {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False}


class Browser:
    """Headless Chromium driven over the DevTools protocol (CDP) on a pipe.

    ``--remote-debugging-pipe`` makes Chromium read commands from its file descriptor 3
    and write replies and events to 4, each a JSON message ended by a NUL byte. A window
    of headless Chromium is never narrower than about 500 px, so a phone is emulated
    (``Emulation.setDeviceMetricsOverride``) rather than asked of the window.
    """

    def __init__(self, chromium: str, profile: str):
        # the child's ends, moved above 2..4 so that placing them at 3 and 4 clobbers neither
        to_child, self._to_browser = os.pipe()
        self._from_browser, from_child = os.pipe()
        ends = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (to_child, from_child)]
        os.close(to_child)
        os.close(from_child)

        def plumb() -> None:  # in the child, before exec: its ends become fds 3 and 4
            os.dup2(ends[0], 3)
            os.dup2(ends[1], 4)

        self.process = subprocess.Popen(  # preexec_fn places the pipe at fds 3, 4
            [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=False,  # fds 3 and 4 stay open; the others are close-on-exec
            preexec_fn=plumb,
        )
        for fd in ends:
            os.close(fd)
        self._buffer = b""
        self._last_id = 0

    def send(self, method: str, params: dict | None = None, session: str | None = None):
        """Send one command and return its result (events in between are dropped)."""
        self._last_id += 1
        message = {"id": self._last_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + 60
        while True:
            reply = self._receive(deadline)
            if reply.get("id") == self._last_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def _receive(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_browser], [], [], left)[0]:
                raise RuntimeError("Chromium did not answer within 60 s")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe (is it working?)")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def tab(self, metrics: dict) -> str:
        """A new tab that emulates ``metrics``; returns its session id."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})
        session_id = session["sessionId"]
        self.send("Emulation.setDeviceMetricsOverride", metrics, session_id)
        return session_id

    def evaluate(self, expression: str, session: str):
        """The value of a JavaScript expression in the tab's page."""
        result = self.send(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True}, session
        )
        return result["result"].get("value")

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except RuntimeError:
            pass
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)


def pages(root: Path, include_api: bool) -> list[Path]:
    """The pages to measure: top-level pages, the gallery, and optionally the API."""
    skip = {"genindex.html", "search.html", "py-modindex.html"}
    found = [p for p in sorted(root.glob("*.html")) if p.name not in skip]
    found += sorted((root / "auto_examples").glob("*.html"))
    if include_api:
        found += sorted((root / "generated").glob("*.html"))
    return found


def measure(browser: Browser, session: str, page: Path) -> dict:
    """Load a copy of ``page`` with the measuring script in the tab; return its result."""
    html = page.read_text(encoding="utf-8")
    probe = page.with_name(f"__measure__{page.name}")
    probe.write_text(html.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    url = probe.as_uri()
    read = (
        f"location.href === {json.dumps(url)} && "
        "document.getElementById('__layout_measure__')?.textContent || null"
    )
    try:
        browser.send("Page.navigate", {"url": url}, session)
        deadline = time.monotonic() + 60
        while (text := browser.evaluate(read, session)) is None:
            if time.monotonic() > deadline:
                raise RuntimeError(f"no measure from {page} within 60 s")
            time.sleep(0.1)
    finally:
        probe.unlink()
    return json.loads(text)


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
        browser = Browser(args.chromium, profile)
        try:
            for width in widths:
                failed |= check_width(browser, root, width, args.all)
        finally:
            browser.close()
    return 1 if failed else 0


def check_width(browser: Browser, root: Path, width: int, include_api: bool) -> bool:
    """Measure every page at one width, print the table; True on a regression."""
    metrics = device(width)
    session = browser.tab(metrics)
    browser.send("Page.enable", session=session)
    kind = "phone" if metrics["mobile"] else "laptop"
    print(
        f"--- {kind} {metrics['width']} x {metrics['height']} CSS px "
        f"(device scale {metrics['deviceScaleFactor']})"
    )
    print(
        f"{'page':46} {'inner':>5} {'col':>4} {'blocks':>6} {'lines':>6} {'cut':>5}  "
        "sidebar  title  chars  wide  api-off  fig-px  fig-wide  prose"
    )
    laptop = width >= 1200
    failed = False
    total_lines = total_cut = blocks = scrolling = verdict_cut = wide_figures = 0
    inner = set()
    for page in pages(root, include_api):
        res = measure(browser, session, page)
        name = str(page.relative_to(root))
        inner.add(res["inner_width"])
        empty_sidebar = res["sidebar_width"] > 0 and res["sidebar_links"] == 0
        side = (
            "EMPTY"
            if empty_sidebar
            else (f"{res['sidebar_width']}px" if res["sidebar_width"] else "-")
        )
        scale = res["figure_scale"]
        figure_px = None if scale is None else scale * SMALL_TEXT_PX
        fig_wide = f"{res['figure_wide']}>{res['column']}" if res["figure_wide"] else "0"
        print(
            f"{name:46} {res['inner_width']:5d} {res['column']:4d} {res['blocks']:6d} "
            f"{res['lines']:6d} {res['cut']:5d}  {side:7}  "
            f"{'CUT' if res['title_cut'] else 'ok':5}  {res.get('capacity', '-')!s:>5}  "
            f"{'WIDE' if res['page_wide'] else 'ok':4}  {res['api_off']:7d}  "
            f"{'-' if figure_px is None else f'{figure_px:.1f}':>6}  {fig_wide:>8}  "
            f"{res['prose_chars']:5d}"
        )
        verdict_cut += res["verdict_cut"]
        wide_figures += res["figure_wide"]
        failed |= res["page_wide"] or res["api_off"] > 0 or res["figure_wide"] > 0
        failed |= figure_px is not None and figure_px < MIN_FIGURE_TEXT_PX
        failed |= laptop and res["prose_chars"] > MAX_PROSE_CHARS
        for line in res["examples"]:
            print(f"{'':10}cut: {line}")
        if res["figure_wide"]:
            print(f"{'':10}figure wider than the column: {res['figure_widest']} px")
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
        f"total at window.innerWidth {'/'.join(map(str, sorted(inner)))} px: {total_cut} of "
        f"{total_lines} code lines cut off ({share:.1%}, {verdict_cut} in verdict tables); "
        f"{scrolling} of {blocks} blocks scroll sideways; {wide_figures} figures wider "
        "than the column"
    )
    if laptop:
        failed |= share > MAX_CUT_SHARE or verdict_cut > 0
    return failed


if __name__ == "__main__":
    sys.exit(main())
