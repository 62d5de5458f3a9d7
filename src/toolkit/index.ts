export { Canvas, Camera } from './canvas.js';
export { PALETTE, Colour, TRANSPARENT, rgb } from './palette.js';
export { sprite, block, rotate, collides, type Sprite } from './sprite.js';
export { ByteReader, ByteWriter } from '../engine/index.js';
