"""Live screens: Server-Sent Events beside each resource a screen follows, served by tornado
(``SERVER=tornado``): the streams in an event loop, the app's other requests in threads."""
