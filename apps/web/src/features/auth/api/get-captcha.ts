import { CAPTCHA_KEY_HEADER } from '@registry/shared/constants';
import { getKeyedImage, useKeyedImage, type KeyedImage } from '../hooks/use-keyed-image';

export type Captcha = KeyedImage;

/** `GET auth/captcha`: an SVG image; the one-time key comes in the `x-captcha-key` header. */
export function getCaptcha(): Promise<Captcha> {
  return getKeyedImage('/auth/captcha', CAPTCHA_KEY_HEADER);
}

export function useCaptcha(enabled: boolean) {
  return useKeyedImage(['auth', 'captcha'], getCaptcha, enabled);
}
