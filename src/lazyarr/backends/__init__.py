"""Built-in backends. Each is registered through the `lazyarr.backends` entry points,
exactly as a third-party backend would be, and imported only when first selected."""
