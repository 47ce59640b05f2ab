// Placeholder: the desktop shell (issue 5) replaces this.
import { app } from 'electron';

app.whenReady().then(() => undefined);
