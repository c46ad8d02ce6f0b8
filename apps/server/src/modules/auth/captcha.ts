import svgCaptcha from 'svg-captcha';

export type CaptchaImage = { text: string; svg: string };
/** Makes a captcha: the answer text and an SVG image of it. Tests inject a fixed one. */
export type CaptchaGenerator = () => CaptchaImage;

export const svgCaptchaGenerator: CaptchaGenerator = () => {
  const c = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1iIlL', color: true, background: '#f2f4f7' });
  return { text: c.text, svg: c.data };
};
