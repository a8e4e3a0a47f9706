// Activity-log logger of the sliders.
import type { LoggerDef } from '../../site/activity.ts';

export const sliderxLogger: LoggerDef = {
  slug: 'SliderxLogger',
  name: { en: 'Slider Logger', de: 'Slider-Logger' },
  via: { en: 'Using plugin sliderx', de: 'Mit dem Plugin sliderx' },
  capability: 'manage_options',
  messages: {
    slider_created: { en: 'Imported new slider "{slider_title}" ({slider_alias}) with {slide_count} slides', de: 'Neuen Slider „{slider_title}“ ({slider_alias}) mit {slide_count} Slides importiert' },
    slider_updated: { en: 'Updated slider "{slider_title}" ({slider_alias}) by import, now {slide_count} slides', de: 'Slider „{slider_title}“ ({slider_alias}) per Import aktualisiert, jetzt {slide_count} Slides' },
  },
  searchLabels: [
    { label: { en: 'Sliders imported', de: 'Importierte Slider' }, messageKeys: ['slider_created', 'slider_updated'] },
  ],
};
