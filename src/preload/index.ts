// Placeholder: the desktop shell (issue 5) exposes the MonitorApi transport here.
export {};
