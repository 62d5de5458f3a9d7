/** The ARC-AGI-3 palette (index -> RGB hex), as the official renderers draw it. */
export const PALETTE = [
  '#FFFFFF', '#CCCCCC', '#999999', '#666666', '#333333', '#000000', '#E53AA3', '#FF7BCC',
  '#F93C31', '#1E93FF', '#88D8F1', '#FFDC00', '#FF851B', '#921231', '#4FCC30', '#A356D0',
] as const;

/** Colour names by index, for game code that reads better with words than numbers. */
export const Colour = {
  WHITE: 0, LIGHT_GREY: 1, GREY: 2, DARK_GREY: 3, CHARCOAL: 4, BLACK: 5, PINK: 6, LIGHT_PINK: 7,
  RED: 8, BLUE: 9, LIGHT_BLUE: 10, YELLOW: 11, ORANGE: 12, DARK_RED: 13, GREEN: 14, PURPLE: 15,
} as const;

/** Transparent pixel in sprites: never drawn. */
export const TRANSPARENT = -1;

export function rgb(index: number): [number, number, number] {
  const hex = PALETTE[index];
  return [parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16)];
}
