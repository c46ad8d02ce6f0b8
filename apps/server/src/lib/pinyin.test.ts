import { describe, expect, it } from 'vitest';
import { mayBePinyin, pinyinKey } from './pinyin';

describe('pinyinKey', () => {
  it('should key a diagnosis by its initials and its full toneless pinyin', () => {
    expect(pinyinKey('心力衰竭')).toBe('xlsj xinlishuaijie');
    expect(pinyinKey('慢性心力衰竭，未特指')).toBe('mxxlsjwtz manxingxinlishuaijieweitezhi');
  });

  it('should leave codes and Latin words out of the key', () => {
    expect(pinyinKey('I50.9 心衰')).toBe('xs xinshuai');
    expect(pinyinKey('NYHA III')).toBe('');
  });

  it('should read polyphonic characters in context', () => {
    // 重 is zhong in 重症 (severe), chong in 重复 (repeat)
    expect(pinyinKey('重症肺炎')).toBe('zzfy zhongzhengfeiyan');
    expect(pinyinKey('重复')).toBe('cf chongfu');
  });

  it('should treat only Latin letters as a possible pinyin keyword', () => {
    expect(mayBePinyin('xlsj')).toBe(true);
    expect(mayBePinyin('I50')).toBe(false);
    expect(mayBePinyin('心衰')).toBe(false);
  });
});
