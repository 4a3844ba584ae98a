"""The render layer: events and states made into posts.

The output formats' registry (`formats`), templates and escaping (`render`),
the MJ's Markdown narration (`narration`), French grammar (`grammar`), a post
cut to the forum's size (`postsplit`), the HTML preview (`preview`) and the SVG
charts (`chart`).

Imports: pbp.model and pbp.base.
"""
