// Activity-log logger of the sliders.
import { defineLogger } from '../../site/activity.ts';

export const sliderxLogger = defineLogger({
  slug: 'SliderxLogger',
  name: { en: 'Slider Logger', de: 'Slider-Logger' },
  via: { en: 'Using plugin sliderx', de: 'Mit dem Plugin sliderx' },
  capability: 'manage_options',
  messages: {
    slider_created: {
      en: 'Imported new slider "{slider_title}" ({slider_alias}) with {slide_count} slides',
      de: 'Neuen Slider „{slider_title}“ ({slider_alias}) mit {slide_count} Slides importiert',
    },
    slider_updated: {
      en: 'Updated slider "{slider_title}" ({slider_alias}) by import, now {slide_count} slides',
      de: 'Slider „{slider_title}“ ({slider_alias}) per Import aktualisiert, jetzt {slide_count} Slides',
    },
  },
  search: {
    label: { en: 'Sliders', de: 'Slider' },
    labelAll: { en: 'All slider activity', de: 'Alle Slider-Aktivitäten' },
    options: [
      { label: { en: 'Imported new sliders', de: 'Neu importierte Slider' }, messageKeys: ['slider_created'] },
      {
        label: { en: 'Sliders updated by import', de: 'Per Import aktualisierte Slider' },
        messageKeys: ['slider_updated'],
      },
    ],
  },
});
