import { describe, expect, it } from 'vitest';
import { LIST_FAILED_TEXT, LIST_LOADING_TEXT, listEmptyText } from './list-empty';

describe('listEmptyText', () => {
  it('should say 加载中 while pending, 加载失败 on error, and the list’s own text only once it answered', () => {
    expect(listEmptyText({ isPending: true, isError: false }, '暂无患者')).toBe(LIST_LOADING_TEXT);
    expect(listEmptyText({ isPending: false, isError: true }, '暂无患者')).toBe(LIST_FAILED_TEXT);
    expect(listEmptyText({ isPending: false, isError: false }, '暂无患者')).toBe('暂无患者');
  });
});
