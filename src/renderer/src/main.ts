// Placeholder: the renderer (issue 4) replaces this.
import { createApp, h } from 'vue';

createApp({ render: () => h('p', 'Teleporter Watch') }).mount('#app');
