// Demo sliders: `home` (three slides, en/de) and `partners` (modal without cover). Existing
// sliders with these aliases are left as they are.
import type { AppServices } from '../../site/services.ts';
import { CLI_ORIGIN, type ActivityOrigin } from '../../site/activity.ts';
import { parseImport } from './import-check.ts';
import { getSliderByAlias, type ImportResult } from './store.ts';
import { importSliders } from './service.ts';

export const DEMO_SLIDERS = {
  version: 1,
  sliders: [
    {
      alias: 'home',
      title: { en: 'Home slider', de: 'Startseiten-Slider' },
      settings: {
        layout: 'fullwidth',
        width: 1240,
        height: 600,
        autoplay: true,
        delay: 7000,
        navigation: { arrows: true, bullets: true, thumbnails: false },
        modal: { cover: true, bg: 'rgba(0,0,0,0.5)', sp: 1 },
      },
      slides: [
        {
          title: { en: 'Welcome', de: 'Willkommen' },
          image: 'https://images.example.org/slides/welcome.jpg',
          thumb: 'https://images.example.org/slides/welcome-thumb.jpg',
          link: '/en/about/',
          params: { transition: 'fade', duration: 600 },
          layers: [
            {
              id: 'headline',
              type: 'text',
              content: { en: 'Grow with our partner programme', de: 'Wachsen Sie mit unserem Partnerprogramm' },
              position: { x: 80, y: 120 },
            },
            {
              id: 'cta',
              type: 'button',
              content: { en: 'Learn more', de: 'Mehr erfahren' },
              link: '/en/partners/',
              position: { x: 80, y: 260 },
            },
          ],
        },
        {
          title: { en: 'Training', de: 'Schulungen' },
          image: 'https://images.example.org/slides/training.jpg',
          thumb: 'https://images.example.org/slides/training-thumb.jpg',
          link: '',
          params: { transition: 'slide', duration: 800 },
          layers: [
            {
              id: 'headline',
              type: 'text',
              content: { en: 'Training for every partner', de: 'Schulungen für jeden Partner' },
              position: { x: 80, y: 120 },
            },
            {
              id: 'logo',
              type: 'image',
              content: 'https://images.example.org/logo.png',
              alt: { en: 'Our logo', de: 'Unser Logo' },
              position: { x: 900, y: 40 },
            },
          ],
        },
        {
          title: { en: 'Contact', de: 'Kontakt' },
          image: 'https://images.example.org/slides/contact.jpg',
          thumb: 'https://images.example.org/slides/contact-thumb.jpg',
          link: '/en/contact/',
          params: { transition: 'zoom', duration: 700 },
          layers: [
            {
              id: 'headline',
              type: 'text',
              content: { en: 'Talk to us', de: 'Sprechen Sie mit uns' },
              position: { x: 80, y: 120 },
            },
          ],
        },
      ],
    },
    {
      alias: 'partners',
      title: { en: 'Partner logos', de: 'Partnerlogos' },
      settings: {
        layout: 'auto',
        width: 960,
        height: 240,
        autoplay: true,
        delay: 4000,
        navigation: { arrows: false, bullets: true, thumbnails: true },
        modal: { cover: false, bg: '#000000', sp: 0.5 },
      },
      slides: [
        {
          title: 'Acme',
          image: 'https://images.example.org/partners/acme.png',
          thumb: 'https://images.example.org/partners/acme-thumb.png',
          link: 'https://acme.example/',
          layers: [],
        },
        {
          title: 'Globex',
          image: 'https://images.example.org/partners/globex.png',
          thumb: 'https://images.example.org/partners/globex-thumb.png',
          link: 'https://globex.example/',
          layers: [],
        },
      ],
    },
  ],
};

export async function seedDemo(app: AppServices, origin: ActivityOrigin = CLI_ORIGIN): Promise<ImportResult[]> {
  const { sliders, issues } = parseImport(DEMO_SLIDERS);
  if (issues.length) throw new Error(`demo sliders are invalid: ${issues.join('; ')}`);
  const missing = [];
  for (const s of sliders) if (!(await getSliderByAlias(app, s.alias))) missing.push(s);
  return missing.length ? importSliders(app, missing, origin) : [];
}
