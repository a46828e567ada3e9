// Renderer entry: the bundled fonts (Latin plus Lao, Thai, Khmer and Simplified Chinese,
// served from the app itself under the CSP's font-src 'self'), global styles, the app.
import '@fontsource/noto-sans/400.css';
import '@fontsource/noto-sans/600.css';
import '@fontsource/noto-sans-lao/400.css';
import '@fontsource/noto-sans-lao/600.css';
import '@fontsource/noto-sans-thai/400.css';
import '@fontsource/noto-sans-thai/600.css';
import '@fontsource/noto-sans-khmer/400.css';
import '@fontsource/noto-sans-sc/400.css';
import './app.css';
import { mount } from 'svelte';
import App from './App.svelte';

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');
mount(App, { target });
