"""An exercise's Markdown made HTML: CommonMark (markdown-it-py), raw HTML off, so a statement, a hint or
a mistake's words can hold code and emphasis but never a script or a tag of its own."""

from markdown_it import MarkdownIt

MD = MarkdownIt("commonmark", {"html": False})


def inline(text: str) -> str:
    """A hint's or a mistake's words: one paragraph's inline Markdown, without the <p>."""
    return MD.renderInline(text)


def statement(text: str) -> dict[str, str]:
    """A statement.<lang>.md: its `# ` title (inline HTML), its first paragraph (the lede, shown unfolded)
    and the rest (folded on a narrow screen), each as HTML."""
    first, _, body = text.partition("\n")
    paragraphs = body.strip().split("\n\n", 1)
    return {
        "title": inline(first.removeprefix("# ").strip()),
        "lede": MD.render(paragraphs[0]) if paragraphs[0] else "",
        "more": MD.render(paragraphs[1]) if len(paragraphs) > 1 else "",
    }
