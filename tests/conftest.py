import sys

#: the suite keeps Python's compiled modules (__pycache__, ignored by git) even where the
#: environment says not to write them (PYTHONDONTWRITEBYTECODE): without them every run, in
#: every xdist worker, compiles pbp, hypothesis and each test module (its asserts rewritten)
#: again, about 9 s of CPU per worker before the first test; the CLI processes some tests start
#: read the compiled pbp modules too. Set before anything below is imported.
sys.dont_write_bytecode = False

import pytest  # noqa: E402

from pbp.model import ruleset  # noqa: E402
from tests.duel import Duel  # noqa: E402
from tests.toy import Toy  # noqa: E402

ruleset.register(Toy)
ruleset.register(Duel)

#: the files holding the slowest tests (`--durations`: a minute and more each on a busy
#: machine), slowest first: they run first, so that with `-n 2` neither worker is left
#: alone with one of them at the end of the run
SLOW_FIRST = ("tests/test_secrecy.py", "tests/test_mj_files.py", "tests/test_readme_tour.py",
              "tests/test_property_orders.py", "tests/test_rules_tutorial.py", "tests/test_yaml_reader.py",
              "tests/test_template_bounds.py", "tests/test_conformance.py", "tests/test_forum_structure.py",
              "tests/test_perf_invariants.py")


def pytest_collection_modifyitems(items):
    rank = {path: i for i, path in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.partition("::")[0], len(SLOW_FIRST)))


def pytest_configure(config):
    """With `-n`, tests go to the workers by work stealing (pytest-xdist's `worksteal`:
    an idle worker takes half of what the other has left) rather than in fixed chunks,
    unless the command line names its own `--dist`."""
    if getattr(config.option, "dist", "no") == "load" and \
            not any(arg.startswith(("--dist", "-d")) for arg in config.invocation_params.args):
        config.option.dist = "worksteal"


@pytest.fixture(scope="session", autouse=True)
def _cache_home(tmp_path_factory):
    """The command line keeps compiled templates in the user's cache folder:
    the suite's go to a folder of its own, never the user's."""
    import os

    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="session", autouse=True)
def _french_machine():
    """Outside a campaign pbp speaks the machine's language (PBP_LANG, else the
    locale, else English): the suite runs as on a French MJ's machine, whatever
    the machine running it; tests of that rule set the variables themselves."""
    import os

    for name in ("PBP_LANG", "LC_ALL", "LC_MESSAGES"):
        os.environ.pop(name, None)
    os.environ["LANG"] = "fr_FR.UTF-8"


@pytest.fixture
def toy_campaign(tmp_path):
    """A fresh toy campaign folder (not set up), two players."""
    from tests.helpers import write

    root = tmp_path / "toy"
    write(root, "campaign.yaml", """
        ruleset: toy
        title: Essai
        players:
          lucy: Lucy
          bob: {character: Bob}
    """)
    write(root, "secret.yaml", "secret: s3cret\n")  # where `pbp init` puts it (pbp/engine/secret.py)
    return root


@pytest.fixture
def played(toy_campaign):
    """The toy campaign set up and played for two turns (Lucy's coin forced on turn 1)."""
    from tests.helpers import pbp, write

    assert pbp("setup", "--no-commit", cwd=toy_campaign).exit_code == 0
    write(toy_campaign, "turns/001/orders/lucy.yaml", "player: lucy\nturn: 1\nactions:\n  - avancer: 1\n"
                                                      "  - pile_ou_face\nroleplay: Lucy avance.\n")
    write(toy_campaign, "turns/001/gm.yaml", "rolls: {lucy.piece: 5}\n")
    assert pbp("run", "--no-commit", cwd=toy_campaign).exit_code == 0
    write(toy_campaign, "turns/002/orders/bob.yaml", "player: bob\nturn: 2\nactions:\n  - pile_ou_face\n")
    assert pbp("run", "--no-commit", cwd=toy_campaign).exit_code == 0
    return toy_campaign
