"""Click classes: the 4,096 cells partitioned by what each shows through the camera (the letterbox, or
the stack of sprites over its grid cell with the pixel each one has there) and by what the camera's
interfaces (RenderableUserDisplay: a toolbar, a button, a step counter, drawn over the 64x64 display
in display coordinates, as the game reads a click) put there, and by the tiles of the level's
placeable areas (placeable_codes), so a class's cells are candidates for one effect. The expand
kernel verifies classes by stepping samples (expand.py)."""
import numpy as np

GRID = 64
_MIX = np.int64(-7046029254386353131)  # an odd 64-bit multiplier (0x9E3779B97F4A7C15 as int64)
_LETTERBOX = np.int64(0x5BD1E995)


def partition(game):
    """The classes as (first cell, cell count, cells) in the order of their first cell (row-major).
    It runs the camera's interfaces (interface_codes), which may change the game (an animation
    queue they pop): call it on a state that is dropped or already packed."""
    codes = cell_codes(game).ravel()
    order = np.argsort(codes, kind='stable')
    sorted_codes = codes[order]
    starts = np.flatnonzero(np.concatenate(([True], sorted_codes[1:] != sorted_codes[:-1])))
    ends = np.append(starts[1:], len(order))
    classes = []
    for s, e in zip(starts.tolist(), ends.tolist()):
        cells = order[s:e]  # ascending cell order (stable sort)
        classes.append((int(cells[0]), e - s, cells))
    classes.sort(key=lambda c: c[0])
    return classes


def cell_codes(game):
    camera = game.camera
    scale, x_off, y_off = camera._calculate_scale_and_offset()
    width, height = camera.width, camera.height
    view = np.zeros((height, width), dtype=np.int64)
    cam_x, cam_y = camera.x, camera.y
    with np.errstate(over='ignore'):
        for i, sprite in enumerate(game.current_level.get_sprites()):
            pixels = sprite.render()
            h, w = pixels.shape
            rx, ry = sprite.x - cam_x, sprite.y - cam_y
            x0, y0 = max(0, rx), max(0, ry)
            x1, y1 = min(width, rx + w), min(height, ry + h)
            if x1 <= x0 or y1 <= y0:
                continue
            sub = pixels[y0 - ry:y1 - ry, x0 - rx:x1 - rx].astype(np.int64)
            region = view[y0:y1, x0:x1]
            region *= _MIX
            region += (i + 1) * 32 + sub + 2
        placeable_codes(game, view, cam_x, cam_y)
        display = np.full((GRID, GRID), _LETTERBOX, dtype=np.int64)
        scaled = np.repeat(np.repeat(view, scale, axis=0), scale, axis=1) if scale > 1 else view
        display[y_off:y_off + scaled.shape[0], x_off:x_off + scaled.shape[1]] = scaled[:GRID - y_off, :GRID - x_off]
        drawn = interface_codes(game)
        if drawn is not None:
            display *= _MIX
            display += drawn
    return display


_PLACEABLE = np.int64(0x27D4EB2F)


def placeable_codes(game, view, cam_x, cam_y):
    """Mixes the level's placeable areas (Level(placeable_areas=[PlaceableArea(x, y, width, height,
    x_scale, y_scale)]), in grid cells) into `view` (the camera's grid cells): regions where a click
    places a piece, which nothing draws, so the cells showed what the cells beside them show and were
    one class with them (the probe's ph18: the background's samples all missed the area; no win). The
    engine offers one placement per tile of x_scale by y_scale cells (base_game's
    _get_valid_placeble_actions), so each tile of each area gets its own code: a placement lands
    elsewhere from each. The area is shifted by the camera as sprites are (display_to_grid gives the
    world's cells), and where the camera is moved also where the engine's own placements put it
    (unshifted: x * scale + offset). Whether a placeable sprite is set (set_placeable_sprite) is not
    looked at: the engine only reads it to list valid actions, and a game may read its areas
    without one."""
    try:
        areas = list(game.current_level.placeable_areas or ())
    except AttributeError:  # an engine without placeable areas
        return
    height, width = view.shape
    shifts = [(cam_x, cam_y, 0)] if (cam_x, cam_y) == (0, 0) else [(cam_x, cam_y, 0), (0, 0, 1)]
    for k, area in enumerate(areas):
        try:
            ax, ay, aw, ah = int(area.x), int(area.y), int(area.width), int(area.height)
            sx, sy = max(1, int(getattr(area, 'x_scale', 1))), max(1, int(getattr(area, 'y_scale', 1)))
        except (AttributeError, TypeError, ValueError):
            continue
        if aw <= 0 or ah <= 0:
            continue
        tiles = (np.arange(ah, dtype=np.int64)[:, None] // sy) * 4099 + np.arange(aw, dtype=np.int64)[None, :] // sx
        for dx, dy, which in shifts:
            rx, ry = ax - dx, ay - dy
            x0, y0 = max(0, rx), max(0, ry)
            x1, y1 = min(width, rx + aw), min(height, ry + ah)
            if x1 <= x0 or y1 <= y0:
                continue
            region = view[y0:y1, x0:x1]
            region *= _MIX
            region += _PLACEABLE + ((2 * k + which) << 26) + tiles[y0 - ry:y1 - ry, x0 - rx:x1 - rx]


_UNSEEN = -1  # a probe frame's value: no colour (0..15), so no interface draws it or tests for it


def interface_codes(game):
    """What the camera's interfaces draw on each display cell, as a code (None without interfaces).
    The interfaces run twice, as the camera runs them, on copies: over the display the level gives
    without them (what the game shows) and over a frame of _UNSEEN. A cell no interface draws keeps
    what the level put there in the first and _UNSEEN in the second: the code is then a function of
    that (already in the cell's code) and splits nothing. A cell an interface draws gets its colour
    in both, so it is split from the cells beside it even where it has their colour (a button's
    label in the background colour); one drawn by what the frame shows there (over colour 0 only)
    differs in the first. Any interface, whatever it draws; two renders of the interfaces a state."""
    camera = game.camera
    interfaces = getattr(camera, '_interfaces', None)
    if not interfaces:
        return None
    interfaces = list(interfaces)
    try:
        camera._interfaces = []
        shown = np.asarray(camera.render(game.current_level.get_sprites()))
    finally:
        camera._interfaces = interfaces
    codes = []
    for probe in (shown, np.full((GRID, GRID), _UNSEEN, dtype=shown.dtype)):
        frame = probe.copy()
        try:
            for interface in interfaces:
                frame = interface.render_interface(frame)
            frame = np.asarray(frame)
            if frame.shape != (GRID, GRID):
                raise ValueError(f'an interface drew a frame of shape {frame.shape}')
        except Exception:  # noqa: BLE001 - an interface that fails over a probe only: the game's frame alone then
            if codes:
                break
            raise
        codes.append(frame.astype(np.int64) & 0xFF)
    if len(codes) == 1:
        return codes[0] + 1
    return (codes[0] << 8 | codes[1]) + 1
