// sliderx as other modules may use it (the importer, the console): reading, storing, exporting slider imports.
export { localize, type SliderData } from './model.ts';
export { parseImport } from './import-check.ts';
export { exportSliders, getSliderByAlias, listSliders } from './store.ts';
export { getSlider, importSliders } from './service.ts';
