"""The base layer: what every other part of pbp stands on, knowing nothing of games.

The one error type (`errors.PbpError`, said late in the reader's language), the
message catalogues (`i18n`, reading `pbp/messages.yaml`), plain records
(`record`), lazy and linear-time regular expressions (`patterns`), the user's
cache (`usercache`), YAML in and out with line numbers (`yamlio`, `yamlread`,
`yamldump`), and a campaign file's bytes read safely (`files`).

Imports: nothing of pbp outside this package.
"""
