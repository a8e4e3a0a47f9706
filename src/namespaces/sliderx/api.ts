// sliderx as other modules may use it (the importer, the console): reading, storing, exporting slider imports.
export { localize, parseImport, type SliderData } from './model.ts';
export { exportSliders, getSliderByAlias, listSliders } from './store.ts';
export { getSlider, importSliders } from './service.ts';
