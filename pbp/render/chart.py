"""A histogram as plain SVG, from a template: no plotting library needed."""

from __future__ import annotations

from pbp.render.render import package_dir

COLORS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759"]


def histogram_svg(title: str, xtitle: str, series: list[tuple[str, dict]]) -> str:
    """`series`: (name, {value: count}) pairs, drawn side by side as shares."""
    from jinja2 import Environment, FileSystemLoader

    width, height = 720, 400
    left, right, top, bottom = 60, width - 20, 60, height - 40
    values = sorted({float(k) for _, h in series for k in h}, key=float)
    keys = [str(int(v)) if v.is_integer() else str(v) for v in values]
    shares = [{k: count / max(1, sum(h.values())) for k, count in h.items()} for _, h in series]
    top_share = max([max(s.values(), default=0) for s in shares] + [0.01])
    slot = (right - left) / max(1, len(keys))
    bar_w = max(1.0, slot * 0.8 / max(1, len(series)))
    bars = []
    for si, share in enumerate(shares):
        for ki, key in enumerate(keys):
            value = share.get(key, 0)
            h = (bottom - top) * value / top_share
            bars.append({"x": round(left + ki * slot + slot * 0.1 + si * bar_w, 2), "y": round(bottom - h, 2),
                         "w": round(bar_w, 2), "h": round(h, 2), "color": COLORS[si % len(COLORS)],
                         "tip": f"{series[si][0]} — {key} : {value * 100:.1f} %"})
    step = max(1, len(keys) // 15)
    xlabels = [{"x": round(left + (i + 0.5) * slot, 2), "text": k} for i, k in enumerate(keys) if i % step == 0]
    yticks = [{"y": round(bottom - (bottom - top) * f, 2), "label": f"{top_share * f * 100:.0f} %"}
              for f in (0, 0.25, 0.5, 0.75, 1)]
    env = Environment(loader=FileSystemLoader(str(package_dir("templates") / "common")), autoescape=True,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    return env.get_template("chart.svg.j2").render(
        title=title, xtitle=xtitle, width=width, height=height, left=left, right=right, top=top, bottom=bottom,
        bars=bars, xlabels=xlabels, yticks=yticks,
        series=[{"name": name, "color": COLORS[i % len(COLORS)]} for i, (name, _) in enumerate(series)])
