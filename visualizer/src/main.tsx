import { render } from 'preact';
import { App } from './app.js';
import './styles.css';
import './phone.css';

render(<App />, document.getElementById('app')!);
