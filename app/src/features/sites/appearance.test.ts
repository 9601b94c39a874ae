import { describe, expect, it } from 'vitest';
import { sixDigitColor, withAppearance } from './appearance';
import type { Customization } from './types';

const current: Customization = {
  title: 'Old title',
  styling: { primaryColor: { light: '#346DDB', dark: '#346DDB' }, corners: 'rounded' },
  header: {
    preset: 'default',
    links: [],
    logo: { light: 'https://example.com/a.png', dark: 'https://example.com/b.png' },
  },
  themes: { default: 'system', toggeable: true },
};

describe('the appearance form', () => {
  it('widens #rgb colours for the colour input and lowers their case', () => {
    expect(sixDigitColor('#A1c')).toBe('#aa11cc');
    expect(sixDigitColor('#346DDB')).toBe('#346ddb');
  });

  it('changes the title, logo and primary colour and keeps every other key', () => {
    const next = withAppearance(current, {
      title: ' New title ',
      logo: 'https://example.com/logo.png',
      light: '#112233',
      dark: '#445566',
    });
    expect(next).toEqual({
      title: 'New title',
      styling: { primaryColor: { light: '#112233', dark: '#445566' }, corners: 'rounded' },
      header: {
        preset: 'default',
        links: [],
        logo: { light: 'https://example.com/logo.png', dark: 'https://example.com/logo.png' },
      },
      themes: { default: 'system', toggeable: true },
    });
  });

  it('drops the title and the logo when left empty', () => {
    const next = withAppearance(current, { title: ' ', logo: '', light: '#112233', dark: '#445566' });
    expect('title' in next).toBe(false);
    expect('logo' in next.header).toBe(false);
  });
});
