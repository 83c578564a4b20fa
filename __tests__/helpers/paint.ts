// What the painter hands a view besides its size: Markdown rendered as the transcript renders an answer.
import { CLUSTERING } from '../../src/editor/width';
import { coloured, renderMarkdown } from '../../src/markdown/render';
import type { GridRow } from '../../src/kernel/rows';

export const markdown = (src: string, width: number): GridRow[] =>
  renderMarkdown(src, width, CLUSTERING).map((row): GridRow => coloured(row));
