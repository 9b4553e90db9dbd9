// Async boundary: the federation runtime sets up the shared modules before any React code runs.
import(/* webpackChunkName: "bootstrap" */ './bootstrap');
