"""Loads one ARC-AGI-3 game: its module (registered in sys.modules so pickle finds its classes), its
ARCBaseGame subclass and its metadata.json; patches the engine so levels not being played can be shared."""
import importlib.util
import json
import os
import random
import re
import sys

import numpy as np


class LoadError(Exception):
    """The game cannot be loaded: the Node side reports it as bad input (exit 2)."""


def import_engine():
    try:
        import arcengine  # noqa: F401
        from arcengine import ARCBaseGame, ActionInput, GameAction, GameState
    except Exception as err:  # ImportError, or an engine that fails on import
        raise LoadError(f'no-engine: cannot import arcengine ({type(err).__name__}: {err})') from err
    return ARCBaseGame, ActionInput, GameAction, GameState


def game_file(path):
    """The game's <id>.py: `path` itself, or the one .py of a <id>/<version>/ folder, or of the one version of an <id>/ folder."""
    path = os.path.abspath(path)
    if os.path.isfile(path):
        return path
    if not os.path.isdir(path):
        raise LoadError(f'no such game: {path}')
    name = os.path.basename(path.rstrip('/'))
    own = os.path.join(path, f'{name}.py')
    if os.path.isfile(own):
        return own
    versions = [d for d in sorted(os.listdir(path)) if os.path.isdir(os.path.join(path, d))]
    if len(versions) == 1:
        inner = os.path.join(path, versions[0], f'{name}.py')
        if os.path.isfile(inner):
            return inner
    py = [f for f in sorted(os.listdir(path)) if f.endswith('.py')]
    if len(py) == 1:
        return os.path.join(path, py[0])
    raise LoadError(f'{path} is not an ARC game folder (<id>/<version>/<id>.py beside metadata.json)')


# Levels registered as shared (pristine, owned by the host): set_level clones one before the game plays it.
PRISTINE_IDS = set()


def patch_engine(base_class):
    """A level is cloned from `_clean_levels` when play moves onto a shared one, as the engine's own resets do."""
    if getattr(base_class, '_arcgraph_patched', False):
        return
    original = base_class.set_level

    def set_level(self, index):
        levels = self._levels
        if 0 <= index < len(levels) and id(levels[index]) in PRISTINE_IDS:
            levels[index] = self._clean_levels[index].clone()
        original(self, index)

    base_class.set_level = set_level
    base_class._arcgraph_patched = True


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


# The fields of metadata.json arcgraph reads, each with what it must be (absent or null: not given).
METADATA_FIELDS = {
    'game_id': ('a string', lambda v: isinstance(v, str) and v != ''),
    'title': ('a string', lambda v: isinstance(v, str)),
    'baseline_actions': ('a list of non-negative integers', lambda v: isinstance(v, list) and all(_is_int(a) and a >= 0 for a in v)),
    'tags': ('a list of strings', lambda v: isinstance(v, list) and all(isinstance(t, str) for t in v)),
    'default_fps': ('a positive number', lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0),
}


def read_metadata(path):
    """metadata.json, its fields checked: one that has the wrong type is a LoadError naming it (not
    read as something else: a game id 42, a title "['x']", baselines dropped)."""
    try:
        with open(path, encoding='utf-8') as f:
            meta = json.load(f)
    except (OSError, ValueError) as err:
        raise LoadError(f'{path} is not valid JSON: {err}') from err
    if not isinstance(meta, dict):
        raise LoadError(f'{path} holds a {type(meta).__name__}, not an object of fields (game_id, title, baseline_actions...)')
    for field, (want, ok) in METADATA_FIELDS.items():
        value = meta.get(field)
        if value is not None and not ok(value):
            raise LoadError(f'{path}: "{field}" is {json.dumps(value, separators=(",", ":"))[:60]}, not {want}')
    return meta


class Game:
    """The loaded game: module, class and metadata (levels, actions, baseline)."""

    def __init__(self, path, graph_builder=False, seed=0):
        self.base_class, self.ActionInput, self.GameAction, self.GameState = import_engine()
        patch_engine(self.base_class)
        self.file = game_file(path)
        folder = os.path.dirname(self.file)
        meta_path = os.path.join(folder, 'metadata.json')
        self.meta = {}
        if os.path.isfile(meta_path):
            self.meta = read_metadata(meta_path)
        stem = os.path.splitext(os.path.basename(self.file))[0]
        game_id = str(self.meta.get('game_id') or stem)
        # The full id (tu93-2b534c15) is what FrameData and recordings of the ARC API carry.
        self.game_id = game_id
        self.id, _, self.version = game_id.partition('-')
        self.version = self.version or os.path.basename(folder)
        # Both global RNGs, numpy's and the `random` module's, start from --seed (runtime.py carries them).
        np.random.seed(seed)
        random.seed(seed)
        name = 'arcgraph_game_' + re.sub(r'\W', '_', f'{self.id}_{self.version}')
        spec = importlib.util.spec_from_file_location(name, self.file)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as err:
            raise LoadError(f'{self.file} fails on import: {type(err).__name__}: {err}') from err
        self.module = module
        # Read by the identity's static checks (engine bookkeeping the game's own code uses).
        with open(self.file, encoding='utf-8', errors='replace') as f:
            self.source = f.read()
        self.graph_builder_flag = hasattr(module, 'GRAPH_BUILDER')
        if graph_builder and self.graph_builder_flag:
            module.GRAPH_BUILDER = True
        classes = [c for c in vars(module).values() if isinstance(c, type) and issubclass(c, self.base_class) and c is not self.base_class and c.__module__ == name]
        self.cls = self._game_class(classes)
        self.tags = list(self.meta.get('tags') or [])
        self.title = str(self.meta.get('title') or self.id.upper())

    def _game_class(self, classes):
        """The game's class among the module's ARCBaseGame subclasses: the one named after the game id (as
        the ARC toolkit finds it: Lp85 for lp85), else the one no other derives from (a base game class
        beside the game)."""
        if len(classes) == 1:
            return classes[0]
        named = [c for c in classes if c.__name__.lower() == self.id.lower()]
        if len(named) == 1:
            return named[0]
        leaves = [c for c in classes if not any(o is not c and issubclass(o, c) for o in classes)]
        if len(leaves) == 1 and classes:
            return leaves[0]
        names = ', '.join(sorted(c.__name__ for c in classes))
        raise LoadError(f'{self.file} defines {len(classes)} ARCBaseGame subclasses{f" ({names})" if names else ""}: the game\'s is the one named after '
                        f'its id ({self.id.capitalize()}), or the only one no other derives from')

    def new(self):
        return self.cls()

    def info(self, instance):
        """What the game says about itself; without an instance (its constructor raised) the metadata's
        baseline gives the levels, one each."""
        baseline = self.meta.get('baseline_actions')
        baseline = baseline if isinstance(baseline, list) else None
        return {
            'id': self.id,
            'gameId': self.game_id,
            'version': self.version,
            'title': self.title,
            'file': self.file,
            'levels': len(instance._levels) if instance is not None else max(1, len(baseline or [])),
            'actions': sorted(int(a) for a in instance._available_actions) if instance is not None else [],
            'baseline': baseline,
            'tags': self.tags,
            'graphBuilder': self.graph_builder_flag,
            'winScore': instance._win_score if instance is not None else None,
        }
