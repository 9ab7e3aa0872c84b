"""German's informal address ("du") in a text: the pages for teachers and administrators say "Sie"."""

import re

# "du" and its forms, and the "du" imperatives the catalogue writes ("Erstelle", "starte", "versuche es"),
# which a "Sie" text writes "Erstellen Sie": words that are nouns too ("Frage", "Versuche") only where
# they cannot be one.
DU = re.compile(
    r"\b(du|dein\w*|dich|dir|erstelle|starte|warte|füge|wähle|frag|prüfe|versuche es|öffne|entferne|sag|"
    r"lies|sieh|drücke|gib|schreibe|melde|kopiere|setze|schalte|nimm)\b",
    re.IGNORECASE,
)


def says_du(text: str) -> list[str]:
    """The "du" words and imperatives in text, in order."""
    return [m[0] for m in DU.finditer(text)]
