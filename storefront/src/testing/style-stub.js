// Stylesheets are files the server links to; in jest an import of one is its URL.
module.exports = '/s-assets/store.css';
