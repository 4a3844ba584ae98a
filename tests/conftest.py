import pytest

from pbp import ruleset
from tests.duel import Duel
from tests.toy import Toy

ruleset.register(Toy)
ruleset.register(Duel)


@pytest.fixture
def toy_campaign(tmp_path):
    """A fresh toy campaign folder (not set up), two players."""
    from tests.helpers import write

    root = tmp_path / "toy"
    write(root, "campaign.yaml", """
        ruleset: toy
        title: Essai
        secret: s3cret
        players:
          lucy: Lucy
          bob: {character: Bob}
    """)
    return root
