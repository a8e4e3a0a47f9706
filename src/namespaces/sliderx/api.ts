// sliderx as other modules may use it (the importer): reading and storing slider imports.
export { parseImport, type SliderData } from './model.ts';
export { importSliders } from './store.ts';
