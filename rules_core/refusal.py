"""The one error the engine raises: an event the rules do not allow in the current state."""


class Refused(Exception):
    """An event was refused; nothing changed.

    `code` is a short stable token for tests and logs; `text` is the reason a referee reads.
    """

    def __init__(self, code, text):
        super().__init__(text)
        self.code = code
        self.text = text


def refuse(code, text):
    raise Refused(code, text)
