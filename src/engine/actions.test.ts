import { describe, expect, it } from 'vitest';
import { CLICK_BASE, GameAction, MAX_ACTION_CODE, actionCode, actionFromCode, actionName, checkedClick, codeName, parseAction } from './actions.js';

describe('action codes', () => {
  it('round-trip every code and every click', () => {
    // code 6 (a click without a cell) is never produced: clicks are CLICK_BASE + cell
    for (let code = 0; code <= MAX_ACTION_CODE; code++) if (code !== GameAction.ACTION6) expect(actionCode(actionFromCode(code))).toBe(code);
    expect(actionFromCode(CLICK_BASE + 20 * 64 + 10)).toEqual({ id: GameAction.ACTION6, x: 10, y: 20 });
    expect(MAX_ACTION_CODE).toBe(8 + 4095);
  });

  it('names and parses each other', () => {
    for (const code of [0, 1, 5, 7, CLICK_BASE, CLICK_BASE + 63 * 64 + 63, CLICK_BASE + 100]) {
      const action = actionFromCode(code);
      expect(parseAction(actionName(action))).toEqual(action.id === 0 ? { id: 0 } : action);
    }
    expect(codeName(CLICK_BASE + 64 + 2)).toBe('ACTION6(2,1)');
  });

  it('parses the short forms and rejects bad ones', () => {
    expect(parseAction('3')).toEqual({ id: 3 });
    expect(parseAction(' action4 ')).toEqual({ id: 4 });
    expect(parseAction('6@10,20')).toEqual({ id: 6, x: 10, y: 20 });
    expect(parseAction('reset')).toEqual({ id: 0 });
    expect(() => parseAction('ACTION8')).toThrow('not an action');
    expect(() => parseAction('ACTION6')).toThrow('needs a cell');
    expect(() => parseAction('ACTION6(64,0)')).toThrow('outside the grid');
  });

  it('checks click cells', () => {
    expect(checkedClick(0, 63)).toEqual({ id: 6, x: 0, y: 63 });
    expect(() => checkedClick(-1, 0)).toThrow('0..63');
    expect(() => checkedClick(0, 64)).toThrow('0..63');
    expect(() => checkedClick(0.5, 1)).toThrow('0..63');
  });
});
