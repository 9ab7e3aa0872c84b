"""axe-core on the real page: its serious and critical violations, for any test that looks at a state.

axe-core is the npm package pinned in package.json (node_modules/axe-core/axe.min.js). The page's
Content-Security-Policy refuses Playwright's add_script_tag (an inline script), so its source is run with
page.evaluate, which the DevTools protocol does outside the page's policy: the page keeps its real CSP,
no bypass_csp context is needed. Only violations are asked for in full (resultTypes): axe then builds no
selector for each element that passes: a few percent of a run (benchmarks/axe_run.py).
"""

from pathlib import Path

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


# The page as the learner reads it, not changing under axe (which fails on an element removed while it
# looks): the next Check's runtime, which the status line reports, has loaded.
SETTLED = """() => { const status = document.querySelector('[data-testid=runtime-status]');
  return !status || status.dataset.state !== 'ready' || status.dataset.fresh === 'ready'; }"""


def serious_violations(page) -> list[str]:
    """Run axe on the page as it is; each serious or critical violation as 'rule (impact): elements'."""
    page.wait_for_function(SETTLED)
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text())
    return page.evaluate(
        """tags => axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
           .then(r => r.violations
             .filter(v => v.impact === 'serious' || v.impact === 'critical')
             .map(v => `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map(n => n.target.join(' '))}`))""",
        RULES,
    )
