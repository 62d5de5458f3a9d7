"""Speed-ups of the libraries a game runs on that change no answer, applied once per process."""


def remember_factory_checks():
    """pydantic 2 (measured: 2.13) asks, each time it builds a model with a private attribute, whether
    the attribute's default factory takes the validated data, by inspect.signature: for a builtin such
    as `list` that parses its text signature (tokenize, compile: about 0.2 ms). The engine builds a
    FrameDataRaw, whose `_frame` has `default_factory=list`, on every step: a third of a step of wa30
    and tu93 went there. The answer is a function of the factory alone, so each is asked once."""
    try:
        from pydantic._internal import _fields
    except ImportError:
        return
    check = getattr(_fields, 'takes_validated_data_argument', None)
    if check is None or getattr(check, 'remembered', False):
        return
    answers = {}

    def remembered(default_factory):
        try:
            return answers[default_factory]
        except KeyError:
            pass
        except TypeError:  # an unhashable factory: asked every time, as before
            return check(default_factory)
        answer = check(default_factory)
        if len(answers) < 4096:  # factories made on the fly are not kept for ever
            answers[default_factory] = answer
        return answer

    remembered.remembered = True
    _fields.takes_validated_data_argument = remembered
