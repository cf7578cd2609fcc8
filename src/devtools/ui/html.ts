import { h } from 'preact';
import htm from 'htm';

/**
 * Tagged templates for Preact. Interpolated values become text nodes or attributes, never markup, so what a model
 * wrote stays text however much it looks like HTML.
 */
export const html = htm.bind(h);
