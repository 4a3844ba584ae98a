import pytest

from pbp.model import ruleset
from tests.duel import Duel
from tests.toy import Toy

ruleset.register(Toy)
ruleset.register(Duel)


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
