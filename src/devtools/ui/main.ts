import { render } from 'preact';
import { App } from './app';
import { html } from './html';
import './style.css';

render(html`<${App} />`, document.getElementById('app')!);
