// Sliders (sliderx): their routes, the `slider import|export` commands and demo sliders.
import type { SiteModule } from '../../site/module.ts';
import { sliderxNamespace } from './routes.ts';
import { sliderxLogger } from './logger.ts';
import { sliderCommands } from './commands.ts';
import { seedDemo } from './seed.ts';

export const sliderxModule: SiteModule = {
  name: 'sliderx',
  namespaces: [sliderxNamespace],
  loggers: [sliderxLogger],
  commands: sliderCommands,
  seed: seedDemo,
};
